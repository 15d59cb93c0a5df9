import { isIP } from 'node:net';
import { z } from 'zod';

// Parsers of environment values. Each only decides whether a value is good: what a bad value must be instead is
// said once, by its variable (src/platform/config-variables.ts), since zod's own words name types, not settings.

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const BOOL_WANTED = 'true or false (1/0 and yes/no also do)';

export const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** "a, b,,c" → ["a", "b", "c"]. */
export const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
);

export const retryDelays = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/)
  .transform((s) => s.split(',').map((v) => Number(v.trim())));

// Browser origins: "https://a.example,http://localhost:1", each normalized to its origin.
export const originList = commaList
  .refine((list) => list.every((v) => /^https?:\/\/[^/?#\s]+$/i.test(v) && URL.canParse(v)))
  .transform((list) => list.map((v) => new URL(v).origin));

// Redis Cluster: "host:port,host:port,…" (a few nodes are enough; the client discovers the others).
export interface RedisNode {
  host: string;
  port: number;
}
export const redisNodes = commaList
  .refine(
    (list) =>
      list.length > 0 &&
      list.every((v) => {
        const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(v);
        return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
      }),
  )
  .transform((list): RedisNode[] =>
    list.map((v) => {
      const at = v.lastIndexOf(':');
      return { host: v.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(v.slice(at + 1)) };
    }),
  );

/** "name=n,name=n" where every name is one of `names` and every n at least `min`. */
export const namedNumbers = (names: readonly string[], min: number) =>
  z
    .string()
    .regex(/^\s*[a-z-]+\s*=\s*\d+(\s*,\s*[a-z-]+\s*=\s*\d+)*\s*$/)
    .transform((s) =>
      Object.fromEntries(
        s
          .split(',')
          .map((pair) => pair.split('=').map((v) => v.trim()) as [string, string])
          .map(([k, v]) => [k, Number(v)]),
      ),
    )
    .refine((m) => Object.keys(m).every((k) => names.includes(k)))
    .refine((m) => Object.values(m).every((v) => v >= min));

/** Shard numbers and ranges, "0,2", "0-3", "1,4-6", each below `max`: the sorted shards they name. */
export const shardList = (max: number) =>
  z
    .string()
    .regex(/^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/)
    .transform((s) =>
      s.split(',').map((part) => part.split('-').map((v) => Number(v.trim())) as [number] | [number, number]),
    )
    .refine((parts) => parts.every(([a, b]) => b === undefined || a <= b))
    .refine((parts) => parts.flat().every((v) => v < max))
    .transform((parts) => {
      const all = parts.flatMap(([a, b = a]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
      return [...new Set(all)].sort((x, y) => x - y);
    });

export const isListenAddress = (h: string) => isIP(h) !== 0 || h === 'localhost';

/** Redis's hash-tag rule: the text between the first "{" and the first "}" after it, when not empty, picks the slot. */
export function hashTagOf(prefix: string): string | null {
  const open = prefix.indexOf('{');
  const close = open < 0 ? -1 : prefix.indexOf('}', open + 1);
  return close > open + 1 ? prefix.slice(open + 1, close) : null;
}
