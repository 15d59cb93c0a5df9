import type { CallbackFailure } from '../../delivery/mcp-occurrence.js';

// The MCP Events error codes webhook mode answers (docs/mcp-events-webhook.md#errors). Each is a JSON-RPC error
// whose `data` says which case it is, so a client branches on code and data, never on the message.

/**
 * A JSON-RPC error the SDK server answers as it is: its code, message and data (the SDK's McpError would prefix
 * the message with "MCP error <code>:").
 */
export class EventsError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const eventsCode = {
  invalidParams: -32602,
  notFound: -32011,
  forbidden: -32012,
  resourceExhausted: -32013,
  unsupported: -32014,
  callbackEndpointError: -32015,
} as const;

export const invalidParams = (message: string, data?: Record<string, unknown>) =>
  new EventsError(eventsCode.invalidParams, `Invalid params: ${message}`, data);

export const notFound = (kind: 'event' | 'subscription', message: string) =>
  new EventsError(eventsCode.notFound, `NotFound: ${message}`, { kind });

export const forbidden = (reason: string) => new EventsError(eventsCode.forbidden, `Forbidden: ${reason}`, { reason });

export const resourceExhausted = (limit: string, max: number) =>
  new EventsError(eventsCode.resourceExhausted, `ResourceExhausted: at most ${max} ${limit} per principal`, {
    limit,
    max,
  });

export const unsupported = (feature: string, value: unknown) =>
  new EventsError(eventsCode.unsupported, `Unsupported: ${feature} ${JSON.stringify(value)} is not offered`, {
    feature,
    value,
  });

export const callbackEndpointError = (reason: CallbackFailure) =>
  new EventsError(eventsCode.callbackEndpointError, `CallbackEndpointError: ${reason}`, { reason });
