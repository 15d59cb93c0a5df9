// The delivery modes of the MCP Events extension this server offers, for every event type (docs/mcp-events.md).
// Webhook mode (events/subscribe) is built beside this one, in webhook-*.ts: it is offered when it is added here,
// and nowhere else, so that switching it on is one line.

export type DeliveryMode = 'poll' | 'push' | 'webhook';

export const DELIVERY_MODES: readonly DeliveryMode[] = ['poll', 'push'];

export const offers = (mode: DeliveryMode): boolean => DELIVERY_MODES.includes(mode);
