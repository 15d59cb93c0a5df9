import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { RpcError } from './wire.ts';

// The Events extension's error codes as classes, so an agent branches with instanceof rather than on numbers. Any
// other JSON-RPC error stays the SDK's McpError.

export const EVENTS_ERROR_CODES = {
  invalidParams: -32602,
  notFound: -32011,
  forbidden: -32012,
  resourceExhausted: -32013,
  unsupported: -32014,
  callbackEndpoint: -32015,
} as const;

export class EventsError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
/** -32602: the arguments do not match the event's inputSchema, a bad callback URL or secret. */
export class InvalidParamsError extends EventsError {}
/** -32011: an unknown event name, or no such subscription (`data.kind` may say which). */
export class NotFoundError extends EventsError {}
/** -32012: the principal may not subscribe to this event with these arguments, or lost its access. */
export class ForbiddenError extends EventsError {}
/** -32013: a server limit was reached; `data.limit` names it. */
export class ResourceExhaustedError extends EventsError {}
/** -32014: a mode or option this event does not offer, or a schema that changed in place. */
export class UnsupportedError extends EventsError {}
/** -32015: the webhook endpoint failed verification or could not be reached; `data.reason` says how. */
export class CallbackEndpointError extends EventsError {}

const CLASSES: Record<number, typeof EventsError> = {
  [EVENTS_ERROR_CODES.invalidParams]: InvalidParamsError,
  [EVENTS_ERROR_CODES.notFound]: NotFoundError,
  [EVENTS_ERROR_CODES.forbidden]: ForbiddenError,
  [EVENTS_ERROR_CODES.resourceExhausted]: ResourceExhaustedError,
  [EVENTS_ERROR_CODES.unsupported]: UnsupportedError,
  [EVENTS_ERROR_CODES.callbackEndpoint]: CallbackEndpointError,
};

/** The typed error of a JSON-RPC error object (a terminated notification's, a webhook envelope's). */
export function eventsErrorOf(error: RpcError): EventsError {
  const Class = CLASSES[error.code] ?? EventsError;
  return new Class(error.code, error.message, error.data);
}

/** A request's failure as a typed error when its code is one of the extension's; anything else unchanged. */
export function toEventsError(err: unknown): unknown {
  if (!(err instanceof McpError) || !(err.code in CLASSES)) return err;
  // McpError prefixes "MCP error <code>: " (a server that threw an McpError sends it prefixed already): the
  // server's own message is what reads well.
  const message = err.message.replace(/^(MCP error -?\d+: )+/, '');
  return eventsErrorOf({ code: err.code, message, data: err.data });
}

/** True for an error that a retry will not cure: the server refused this subscription as it stands. */
export const isFinal = (err: unknown) => err instanceof EventsError;
