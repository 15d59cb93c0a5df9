import type { Webhook } from './api-types.js';

// How a page names a subscription's destination: an http URL as it is; a broker's URL (never with its password)
// and where on the broker (docs/webhooks.md#destination-kinds).

export function destinationText(w: Webhook): string {
  if (w.kind === 'rabbitmq') return `${w.url} · exchange "${w.exchange ?? ''}" · routing key ${w.routingKey ?? ''}`;
  if (w.kind === 'nats') return `${w.url} · subject ${w.subject ?? ''}`;
  return w.url;
}

/** A broker destination's URL and target change through the API (PATCH /v1/webhooks/:id), not a page form. */
export const isBrokerKind = (w: Webhook): boolean => w.kind === 'rabbitmq' || w.kind === 'nats';
