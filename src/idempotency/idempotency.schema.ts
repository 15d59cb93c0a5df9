import { z } from 'zod';
import { text } from '../platform/input.js';

/** The Idempotency-Key header: 1 to 255 printable ASCII characters (what a UUID or any client token fits in). */
export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': text()
    .min(1, 'must not be empty')
    .max(255, 'at most 255 characters')
    .regex(/^[\x20-\x7e]*$/, 'printable ASCII characters only'),
});
