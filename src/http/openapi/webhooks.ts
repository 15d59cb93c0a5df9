import { EVENT_TYPES, orderingKeyPath, TEST_EVENT } from '../../events/event-types.js';
import { DELIVERED_EVENTS, envelopeSchema } from '../../feed/event-schemas.js';
import type { SchemaSet } from './schema-set.js';

// The OpenAPI 3.1 `webhooks` object: what Switchboard POSTs to a subscription's URL, one entry per event.

const header = (
  name: string,
  description: string,
  required = true,
  schema: Record<string, unknown> = { type: 'string' },
) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

const DELIVERY_HEADERS = [
  header('X-Switchboard-Event', 'The event name (the envelope `event`).'),
  header('X-Switchboard-Delivery', 'The delivery id (the envelope `id`), the same on every retry.', true, {
    type: 'string',
    format: 'uuid',
  }),
  header(
    'X-Switchboard-Signature',
    '`t=<unix seconds>,v1=<hex>`: lowercase hex HMAC-SHA256 keyed with the whole secret (`whsec_…` as UTF-8) over `<t>.<raw body>`. ' +
      'During a secret rotation (24 h) a second `v1=` signed with the previous secret follows. Verify on the raw bytes, in constant ' +
      'time, and refuse a `t` more than 300 s away. Only while an HMAC key signs: absent for a subscription with `signatureScheme: "ed25519"`.',
    false,
    { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
  ),
  header(
    'X-Switchboard-Signature-Legacy',
    'Only for a subscription created with `legacySecret` (never an ed25519 one): lowercase hex HMAC-SHA256(legacySecret, raw body).',
    false,
    { type: 'string', pattern: '^[0-9a-f]{64}$' },
  ),
  header('webhook-id', 'Standard Webhooks: the delivery id.'),
  header('webhook-timestamp', 'Standard Webhooks: the send time in Unix seconds.'),
  header(
    'webhook-signature',
    "Standard Webhooks, over `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64>` HMAC-SHA256 keyed with the base64-decoded bytes after `whsec_` (signatureScheme hmac-sha256), or `v1a,<base64>` ed25519 signature verified with the subscription's `publicKey` (whpk_ + base64 of the raw 32-byte key; signatureScheme ed25519). Space-separated, one per key, during a rotation or a change of scheme.",
  ),
  header('User-Agent', 'Always `Switchboard-Webhooks/1`.', true, { type: 'string', const: 'Switchboard-Webhooks/1' }),
];

const RESPONSES = {
  '2XX': {
    description: 'Delivered. Any 2xx ends the delivery; the body is ignored (its first 4 KiB are kept on the attempt).',
  },
  default: {
    description:
      'Anything else (a non-2xx, a redirect, a timeout after 10 s, a refused connection) is a failed attempt: the delivery is retried ' +
      'after each WEBHOOK_RETRY_DELAYS_MS delay (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours, ±10 % jitter; ' +
      'a Retry-After on 429/503 is honoured up to twice the next delay), then marked exhausted.',
  },
};

/** `message.received` → `deliverMessageReceivedEvent`: what Switchboard does, in the routes' camelCase. */
const deliveryOperationId = (event: string) =>
  `deliver${event
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

/** Which key an ordered subscription orders this event by (docs/webhook-retries.md#ordered-delivery). */
const orderingNote = (event: string) => {
  const path = orderingKeyPath(event);
  return path ? ` Ordering key: ${path}.` : ' No ordering key: an ordered subscription cannot name it.';
};

export function buildWebhooks(schemas: SchemaSet): Record<string, unknown> {
  return Object.fromEntries(
    DELIVERED_EVENTS.map((event) => {
      const info =
        event === TEST_EVENT
          ? {
              status: 'emitted',
              description: 'Sent by POST /v1/webhooks/{webhookId}/test to that subscription only; not subscribable',
            }
          : EVENT_TYPES[event];
      return [
        event,
        {
          post: {
            operationId: deliveryOperationId(event),
            summary: info.description,
            description: `${info.description}. Status: ${info.status}${info.status === 'planned' ? ' (may be subscribed to; not produced yet)' : ''}.${orderingNote(event)}`,
            tags: ['Webhooks'],
            parameters: DELIVERY_HEADERS,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemas.convert(envelopeSchema(event), 'output') } },
            },
            responses: RESPONSES,
          },
        },
      ];
    }),
  );
}
