// An agent's side of the MCP Events extension over the official MCP SDK client: discover event types, then run a
// poll, stream or webhook loop that hands each batch of events to one onEvents and persists the cursor after it.
export { listEvents } from './list.ts';
export { poll, pollOnce, type PollOptions } from './poll.ts';
export { stream, type StreamEnd, type StreamOptions } from './stream.ts';
export { subscribeWebhook, type WebhookEnd, type WebhookOptions } from './webhook.ts';
export {
  createWebhookReceiver,
  type ReceiverOptions,
  type ReceiverResponse,
  type WebhookReceiver,
} from './receiver.ts';
export { generateSecret } from './secret.ts';
export { connect, type ClientSource, type ConnectOptions } from './connection.ts';
export { cursorKey, fileCursorStore, memoryCursorStore, type CursorStore } from './cursor-store.ts';
export type { EventsInfo, OnEvents } from './handler.ts';
export type { BackoffOptions } from './timing.ts';
export {
  CallbackEndpointError,
  EVENTS_ERROR_CODES,
  EventsError,
  ForbiddenError,
  InvalidParamsError,
  NotFoundError,
  ResourceExhaustedError,
  UnsupportedError,
} from './errors.ts';
export type { DeliveryMode, EventDescriptor, EventOccurrence, PollResult, SubscribeResult } from './wire.ts';
