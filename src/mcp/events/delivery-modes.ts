// The delivery modes of the MCP Events extension this server offers, for every event type (docs/mcp-events.md):
// poll and push answered by the route's dispatcher, webhook (events/subscribe, webhook-*.ts) by the SDK server.

export type DeliveryMode = 'poll' | 'push' | 'webhook';

export const DELIVERY_MODES: readonly DeliveryMode[] = ['poll', 'push', 'webhook'];

export const offers = (mode: DeliveryMode): boolean => DELIVERY_MODES.includes(mode);
