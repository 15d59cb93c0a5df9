/** Fetch's `Headers`, or a plain object of them such as Node's `IncomingHttpHeaders`, names in any case. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

const isFetchHeaders = (headers: HeadersLike): headers is Headers =>
  typeof (headers as { get?: unknown }).get === 'function';

/**
 * One header's value, or undefined when absent. A header given several times reads as Fetch joins it, the values
 * separated by ", ", whichever form the headers come in, so both forms verify the same requests.
 */
export function readHeader(headers: HeadersLike, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? (value.length > 0 ? value.join(', ') : undefined) : value;
  }
  return undefined;
}
