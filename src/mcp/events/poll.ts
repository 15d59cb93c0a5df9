import { now } from '../../platform/clock.js';
import { cursorParam, readSubscription, recheckCredential, wholeParam, type EventsContext } from './context.js';
import { encodeCursor } from './cursor.js';
import { unsupported } from './errors.js';
import { follow } from './follow.js';
import { offers } from './delivery-modes.js';

// events/poll (design sketch, "Poll-Based Delivery"): a long poll. With no cursor it answers at once with the
// position of now; with one it answers as soon as the subscription's log has events after it, or empty at
// timeoutMs (the server's default when omitted, capped by it), always with the cursor to poll from next.

/** How long the client waits between polls: the wait happens in the held request, so a second is enough. */
export const NEXT_POLL_MS = 1000;

export async function pollEvents(ctx: EventsContext, params: unknown) {
  if (!offers('poll')) throw unsupported('deliveryMode', 'poll');
  const sub = readSubscription(ctx, params);
  const limits = ctx.deps.config.mcp.events;
  const cursor = cursorParam(params);
  const maxAgeMs = wholeParam(params, 'maxAgeMs');
  const maxEvents = Math.min(wholeParam(params, 'maxEvents', 1) ?? limits.maxEvents, limits.maxEvents);
  const timeoutMs = Math.min(wholeParam(params, 'timeoutMs') ?? limits.pollTimeoutMs, limits.pollTimeoutMs);
  const deadline = now().getTime() + timeoutMs;

  const follower = await follow(ctx, sub, cursor, maxAgeMs);
  try {
    const answer = (events: Awaited<ReturnType<typeof follower.read>>['events'], hasMore: boolean) => ({
      events: events.map(({ eventId, name, timestamp, data }) => ({ eventId, name, timestamp, data })),
      cursor: encodeCursor(follower.position, sub.binding),
      truncated: follower.truncated,
      hasMore,
      nextPollMs: NEXT_POLL_MS,
    });
    if (cursor === null) return answer([], false);
    for (;;) {
      const batch = await follower.read(maxEvents);
      if (batch.events.length > 0 || ctx.signal.aborted) return answer(batch.events, batch.hasMore);
      const remaining = deadline - now().getTime();
      if (remaining <= 0) return answer([], false);
      // A commit woke the poll: the credential is checked again before anything more is answered with it.
      if (await follower.wait(remaining)) await recheckCredential(ctx);
    }
  } finally {
    follower.stop();
  }
}
