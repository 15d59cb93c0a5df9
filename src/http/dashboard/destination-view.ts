import { isKind, kindNamed } from '../../delivery/kinds/registry.js';
import type { Webhook } from './api-types.js';

// How a page names a subscription's destination: an http URL as it is; a broker's URL (never with its password)
// and where on the broker, as its kind's module says (docs/webhooks.md#destination-kinds).

export function destinationText(w: Webhook): string {
  const where = isKind(w.kind) ? kindNamed(w.kind).where?.(w) : undefined;
  return where ? `${w.url} · ${where}` : w.url;
}

/** A sealed destination URL and its target change through the API (PATCH /v1/webhooks/:id), not a page form. */
export const isBrokerKind = (w: Webhook): boolean => isKind(w.kind) && typeof kindNamed(w.kind).url === 'object';
