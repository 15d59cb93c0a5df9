import { text } from '../platform/input.js';
import { EVENT_NAMES } from './event-types.js';

// An event name a client sends (a subscription's events, a stream's ?events=, a test event's type): one of the
// catalog's, and a typo is answered with the name it most likely meant.

/** Levenshtein distance: the fewest single-character edits from `a` to `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The catalog name closest to `name` when it is a plausible typo of it (a third of its length at most), else null. */
export function closestEventName(name: string): string | null {
  const lower = name.trim().toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const known of EVENT_NAMES) {
    const d = distance(lower, known);
    if (!best || d < best.d) best = { name: known, d };
  }
  return best && best.d <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : null;
}

/** What a 400 says of a name outside the catalog. */
export function unknownEventMessage(name: string): string {
  const near = closestEventName(name);
  const hint = near ? `did you mean ${near}? ` : '';
  return `unknown event ${JSON.stringify(name)}; ${hint}GET /v1/event-types lists them all`;
}

/** An event name of the catalog; the document shows the names as an enum (components.schemas.EventName). */
export const eventName = () =>
  text()
    .superRefine((v, ctx) => {
      if (!(EVENT_NAMES as string[]).includes(v)) ctx.addIssue({ code: 'custom', message: unknownEventMessage(v) });
    })
    .meta({
      id: 'EventName',
      enum: EVENT_NAMES,
      description: 'An event type a subscription may name (GET /v1/event-types)',
    });
