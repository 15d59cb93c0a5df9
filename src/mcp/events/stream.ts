import { META_SUBSCRIPTION, type RequestId } from '../stateless-request.js';
import { cursorParam, readSubscription, recheckCredential, wholeParam, type EventsContext } from './context.js';
import { encodeCursor } from './cursor.js';
import { EventsError, unsupported } from './errors.js';
import { follow, type Follower } from './follow.js';
import { offers } from './delivery-modes.js';
import { takeStreamSlot, type StreamSlot } from './stream-slots.js';
import type { Subscription } from './context.js';

// events/stream (design sketch, "Push-Based Delivery"): the POST is answered with server-sent events carrying
// this subscription's notifications only. It opens with notifications/events/active, then each event as
// notifications/events/event with the cursor after it, and a heartbeat with the cursor checked up to when nothing
// happened for a heartbeat interval. The credential is checked again at every wakeup and heartbeat; once refused,
// notifications/events/terminated (-32012) and the final result end the stream. A client ends it by going away.

export interface StreamWriter {
  send(message: unknown): void;
  /** Ends the response after `last`. */
  end(last: unknown): void;
}

export interface OpenedStream {
  /** Runs until the client goes away or the stream is terminated; never throws. */
  run(writer: StreamWriter): Promise<void>;
}

/**
 * Checks the subscription and takes the credential's stream slot: an error here is answered as a JSON-RPC error
 * and no stream opens (-32602, -32011, -32012, -32013).
 */
export async function openStream(
  ctx: EventsContext,
  id: RequestId,
  params: unknown,
  finalResult: Record<string, unknown>,
): Promise<OpenedStream> {
  if (!offers('push')) throw unsupported('deliveryMode', 'push');
  const sub = readSubscription(ctx, params);
  const cursor = cursorParam(params);
  const maxAgeMs = wholeParam(params, 'maxAgeMs');
  const slot = await takeStreamSlot(ctx.deps, sub.binding.audience);
  let follower: Follower;
  try {
    follower = await follow(ctx, sub, cursor, maxAgeMs);
  } catch (err) {
    await slot.release().catch(() => undefined);
    throw err;
  }
  return { run: (writer) => runStream(ctx, id, sub, follower, slot, writer, finalResult) };
}

async function runStream(
  ctx: EventsContext,
  id: RequestId,
  sub: Subscription,
  follower: Follower,
  slot: StreamSlot,
  writer: StreamWriter,
  finalResult: Record<string, unknown>,
) {
  const meta = { [META_SUBSCRIPTION]: id };
  const note = (method: string, params: Record<string, unknown>) =>
    writer.send({ jsonrpc: '2.0', method: `notifications/events/${method}`, params: { ...params, _meta: meta } });
  const cursorNow = () => encodeCursor(follower.position, sub.binding);
  const { heartbeatMs, maxEvents } = ctx.deps.config.mcp.events;
  try {
    note('active', { cursor: cursorNow(), truncated: follower.truncated });
    let woken = false;
    while (!ctx.signal.aborted) {
      try {
        if (woken) await recheckCredential(ctx);
        const batch = await follower.read(maxEvents);
        for (const e of batch.events) {
          const { eventId, name, timestamp, data } = e;
          note('event', { eventId, name, timestamp, data, cursor: encodeCursor(e.position, sub.binding) });
        }
        if (batch.hasMore) continue;
        woken = await follower.wait(heartbeatMs);
        if (woken || ctx.signal.aborted) continue;
        // A heartbeat interval without a commit: re-check, read (the cursor advances past what matched nothing).
        await recheckCredential(ctx);
        const quiet = await follower.read(maxEvents);
        for (const e of quiet.events) {
          const { eventId, name, timestamp, data } = e;
          note('event', { eventId, name, timestamp, data, cursor: encodeCursor(e.position, sub.binding) });
        }
        await slot.renew();
        note('heartbeat', { cursor: cursorNow() });
        woken = quiet.hasMore;
      } catch (err) {
        if (err instanceof EventsError && err.code === -32012) {
          note('terminated', { error: err.toJson() });
          writer.end({ jsonrpc: '2.0', id, result: finalResult });
          return;
        }
        // A passing failure (Postgres or Redis away): said on the stream, which stays open and tries again.
        ctx.deps.logger.warn({ err }, 'MCP events stream read failed');
        note('error', {
          error: { code: -32603, message: 'InternalError', data: { reason: 'temporarily unavailable' } },
        });
        woken = await follower.wait(heartbeatMs);
      }
    }
  } finally {
    follower.stop();
    await slot.release().catch(() => undefined);
  }
}
