import { z } from 'zod';
import { idString, jsonRecord, outText, timestamp } from '../platform/output.js';

export const notificationResponse = z
  .object({
    id: idString('ntf'),
    kind: outText(),
    title: outText(),
    body: outText(),
    data: jsonRecord(),
    createdAt: timestamp(),
  })
  .meta({ id: 'Notification' });
