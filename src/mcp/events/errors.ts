import type { CallbackFailure } from '../../delivery/mcp-occurrence.js';

// The errors of the MCP Events extension (design sketch, "Error Codes"): JSON-RPC codes in the server range, each
// with a typed `data` the client branches on, never the message. Every events method throws one: the route's
// dispatcher (poll, push) and the SDK server (webhook mode) both answer it as the JSON-RPC error it is.

export const eventsCode = {
  invalidParams: -32602,
  notFound: -32011,
  forbidden: -32012,
  resourceExhausted: -32013,
  unsupported: -32014,
  callbackEndpointError: -32015,
} as const;

export class EventsError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The JSON-RPC `error` member. */
  toJson() {
    return { code: this.code, message: this.message, ...(this.data ? { data: this.data } : {}) };
  }
}

export const invalidParams = (message: string, data?: Record<string, unknown>) =>
  new EventsError(eventsCode.invalidParams, `Invalid params: ${message}`, data);

export const unknownEvent = (name: string) =>
  new EventsError(eventsCode.notFound, `Unknown event: ${name}`, { kind: 'event', name });

export const unknownSubscription = (message: string) =>
  new EventsError(eventsCode.notFound, `Unknown subscription: ${message}`, { kind: 'subscription' });

export const forbidden = (reason: string) => new EventsError(eventsCode.forbidden, 'Forbidden', { reason });

export const resourceExhausted = (limit: string, max: number) =>
  new EventsError(eventsCode.resourceExhausted, `Resource exhausted: at most ${max} ${limit}`, { limit, max });

export const unsupported = (feature: string, value: unknown) =>
  new EventsError(eventsCode.unsupported, `Unsupported: ${feature} ${JSON.stringify(value)} is not offered`, {
    feature,
    value,
  });

export const callbackEndpointError = (reason: CallbackFailure) =>
  new EventsError(eventsCode.callbackEndpointError, 'CallbackEndpointError', { reason });
