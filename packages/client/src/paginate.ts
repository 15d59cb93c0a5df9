import type { CallOptions } from './types.js';

// A list, page after page: the items of each page in order, following nextCursor until the last page
// (docs/api.md#lists). The next page is asked for only when the loop reaches the end of the one before.

interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

type ListArgs = CallOptions & { query?: { cursor?: string } };

/** `for await (const d of paginate(sb.listWebhookDeliveries, { path: { webhookId } }))`: every item of the list. */
export async function* paginate<A extends ListArgs, T>(
  list: (args: A) => Promise<Page<T>>,
  ...[args]: Partial<A> extends A ? [args?: A] : [args: A]
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await list({ ...args, query: { ...args?.query, ...(cursor ? { cursor } : {}) } } as A);
    yield* page.data;
    cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor);
}
