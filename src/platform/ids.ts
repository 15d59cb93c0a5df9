import { randomFillSync, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'acct'
  | 'usr'
  | 'sess'
  | 'key'
  | 'agt'
  | 'ct'
  | 'inb'
  | 'msg'
  | 'run'
  | 'wh'
  | 'evt'
  | 'att'
  | 'dom'
  | 'ntf'
  | 'log'
  | 'int'
  | 'conv'
  | 'act'
  | 'ogr'
  | 'plk';

// Random bytes are drawn from the CSPRNG a few kilobytes at a time, as node's randomUUID does: one randomBytes
// call per id was 4 % of the API process's CPU on the event path (docs/performance.md). A byte is used once, so
// the pool is the process's: runtimes sharing it still get independent ids (no counter, nothing to observe).
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

function randomByte(): number {
  if (poolAt === POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Uniform random base62 string (rejection sampling, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export function toBase62(value: number, width: number): string {
  let out = '';
  let v = value;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, '0');
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}

export const newUuid = (): string => randomUUID();

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The millisecond a UUIDv7 was stamped with (its first 48 bits); null for any other UUID. */
export function uuidV7Time(id: string): Date | null {
  return UUID_V7.test(id) ? new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)) : null;
}

/** The lowest and highest UUIDv7 of a millisecond: every UUIDv7 stamped with `at` sorts between them. */
export function uuidV7Range(at: Date): [string, string] {
  const hex = at.getTime().toString(16).padStart(12, '0');
  const ms = `${hex.slice(0, 8)}-${hex.slice(8)}`;
  return [`${ms}-0000-0000-000000000000`, `${ms}-ffff-ffff-ffffffffffff`];
}
