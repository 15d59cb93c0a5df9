import { z } from 'zod';
import { idString, jsonRecord, outText, timestamp } from '../platform/output.js';

export const feedItemResponse = z
  .object({
    id: idString('evt'),
    event: outText(),
    inboxId: idString('inb').nullable(),
    messageId: idString('msg').nullable(),
    payload: jsonRecord(),
    createdAt: timestamp(),
  })
  .meta({ id: 'FeedItem' });

export const eventTypeResponse = z
  .object({
    name: outText(),
    status: z.enum(['emitted', 'planned']),
    description: outText(),
    orderingKey: outText()
      .nullable()
      .describe(
        'The path in the envelope of the value an ordered subscription (ordering "key") orders by, e.g. payload.conversationId; null: none, and an ordered subscription cannot name this type',
      ),
    payloadSchema: jsonRecord().describe(
      "JSON Schema of the event's payload, self-contained: what a subscription's filter is checked against",
    ),
    schema: jsonRecord().describe('JSON Schema of the whole delivery envelope of this event, payload included'),
  })
  .meta({ id: 'EventType' });
