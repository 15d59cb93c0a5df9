import { describeEvent, offeredEvents } from './catalog.js';
import type { EventsContext } from './context.js';
import { invalidParams } from './errors.js';

// events/list (design sketch, "Listing Available Events"): the event types this credential may subscribe to on
// this endpoint, a page at a time as tools/list pages (an opaque `cursor`, `nextCursor` while more remain).

const PAGE = 10;

export function listEvents(ctx: EventsContext, params: unknown) {
  const cursor = (params as Record<string, unknown> | undefined)?.cursor;
  let offset = 0;
  if (cursor !== undefined && cursor !== null) {
    const match = typeof cursor === 'string' ? /^o(\d{1,4})$/.exec(Buffer.from(cursor, 'base64url').toString()) : null;
    if (!match) throw invalidParams('cursor is not a page cursor of events/list', { field: 'cursor' });
    offset = Number(match[1]);
  }
  const offered = offeredEvents(ctx.audience);
  const page = offered.slice(offset, offset + PAGE).map(describeEvent);
  const next = offset + PAGE < offered.length ? Buffer.from(`o${offset + PAGE}`).toString('base64url') : undefined;
  return { events: page, ...(next ? { nextCursor: next } : {}) };
}
