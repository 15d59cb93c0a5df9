// A list, page after page: the items of each page in order, following nextCursor until the last page
// (docs/api.md#lists). The next page is asked for only when the loop reaches the end of the one before.

interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** A list operation's method: its argument (when it has one) takes `query.cursor`. */
type ListMethod = (args: never) => Promise<Page<unknown>>;

type ItemOfPage<M extends ListMethod> = Awaited<ReturnType<M>>['data'][number];

/** `for await (const d of paginate(sb.listWebhookDeliveries, { path: { webhookId } }))`: every item of the list. */
export async function* paginate<M extends ListMethod>(
  list: M,
  ...[args]: Parameters<M>
): AsyncGenerator<ItemOfPage<M>, void, undefined> {
  const given = (args ?? {}) as { query?: Record<string, unknown> };
  const call = list as unknown as (args: object) => Promise<Page<ItemOfPage<M>>>;
  let cursor: string | undefined;
  do {
    const page = await call({ ...given, query: { ...given.query, ...(cursor ? { cursor } : {}) } });
    yield* page.data;
    cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor);
}
