import type { EventOccurrence } from './wire.ts';

// What every loop hands the application, whichever mode carried it.

export interface EventsInfo {
  /** The position after this batch; the loop persists it once the handler resolved (null: no replay). */
  cursor: string | null;
  /** True when the server skipped events (a stale cursor, the maxAgeMs floor): re-read what matters by tools. */
  truncated: boolean;
}

/**
 * Called with each batch of new events, one call at a time, in order; also with an empty batch when
 * `truncated` is true. A throw stops the loop without persisting the cursor, so the batch comes again next run.
 */
export type OnEvents = (events: EventOccurrence[], info: EventsInfo) => void | Promise<void>;

/** The last few thousand eventIds, so an event a server sends twice (a retry, a replay) reaches onEvents once. */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = 4096) {}

  /** The events not seen before, each now remembered. */
  fresh(events: EventOccurrence[]): EventOccurrence[] {
    return events.filter((e) => {
      if (this.ids.has(e.eventId)) return false;
      this.ids.add(e.eventId);
      // A Set iterates in insertion order: the first is the oldest.
      if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
      return true;
    });
  }
}
