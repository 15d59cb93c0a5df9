import type { Logger } from '../../platform/logger.js';
import type { RequestId } from '../stateless-request.js';
import type { EventsContext } from './context.js';
import { EventsError } from './errors.js';
import { listEvents } from './list.js';
import { pollEvents } from './poll.js';
import { openStream, type OpenedStream } from './stream.js';

// The events methods, answered the same in both protocol eras: the route hands a request here before the SDK
// server sees it (no method is implemented twice), and the era only shapes the result around what comes back.

export const EVENTS_METHODS: ReadonlySet<string> = new Set(['events/list', 'events/poll', 'events/stream']);

export type EventsAnswer =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } }
  | { stream: OpenedStream };

export async function answerEvents(
  ctx: EventsContext,
  log: Logger,
  request: { id: RequestId; method: string; params: unknown },
  finalResult: Record<string, unknown>,
): Promise<EventsAnswer> {
  try {
    switch (request.method) {
      case 'events/list':
        return { result: listEvents(ctx, request.params) };
      case 'events/poll':
        return { result: await pollEvents(ctx, request.params) };
      default:
        return { stream: await openStream(ctx, request.id, request.params, finalResult) };
    }
  } catch (err) {
    if (err instanceof EventsError) return { error: err.toJson() };
    log.error({ err, method: request.method }, 'MCP events request failed');
    return { error: { code: -32603, message: 'Internal error: it has been logged; try again' } };
  }
}
