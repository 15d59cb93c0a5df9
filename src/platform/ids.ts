import { randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'acct' | 'usr' | 'sess' | 'key' | 'agt' | 'ct' | 'inb' | 'msg' | 'run' | 'wh' | 'evt' | 'att' | 'dom'
  | 'ntf' | 'log' | 'int' | 'conv' | 'act' | 'ogr';

/** Uniform random base62 string (rejection sampling, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
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
