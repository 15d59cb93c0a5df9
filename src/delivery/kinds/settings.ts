import { z } from 'zod';
import { text } from '../../platform/input.js';

// What a broker row's settings hold, as its transport reads them (the API checked them on the way in); apart from
// the kinds' declarations so a transport does not import the module that builds it.

export const rabbitmqSettings = z.object({ exchange: text(), routingKey: text() });
export const natsSettings = z.object({ subject: text() });
