// The errors of the MCP Events extension (design sketch, "Error Codes"): JSON-RPC codes in the server range, each
// with a typed `data` the client can branch on. A handler throws one; the dispatcher answers it as a JSON-RPC error.

export const eventsCode = {
  invalidParams: -32602,
  notFound: -32011,
  forbidden: -32012,
  exhausted: -32013,
  unsupported: -32014,
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

export const forbidden = (reason: string) => new EventsError(eventsCode.forbidden, 'Forbidden', { reason });

export const exhausted = (limit: string, max: number) =>
  new EventsError(eventsCode.exhausted, 'Resource exhausted', { limit, max });

export const unsupported = (feature: string, value: string) =>
  new EventsError(eventsCode.unsupported, 'Unsupported', { feature, value });
