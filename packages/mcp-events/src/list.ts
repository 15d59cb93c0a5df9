import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { toEventsError } from './errors.ts';
import { listEventsResult, type EventDescriptor } from './wire.ts';

/** Every event type the server offers: `events/list`, all pages. */
export async function listEvents(client: Client, options: { signal?: AbortSignal } = {}): Promise<EventDescriptor[]> {
  const all: EventDescriptor[] = [];
  let cursor: string | undefined;
  do {
    const params = cursor === undefined ? {} : { cursor };
    const page = await client
      .request({ method: 'events/list', params }, listEventsResult, { signal: options.signal })
      .catch((err: unknown) => {
        throw toEventsError(err);
      });
    all.push(...page.events);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
