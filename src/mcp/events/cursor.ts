import { createHash } from 'node:crypto';
import { z } from 'zod';
import { text } from '../../platform/input.js';
import { invalidParams } from './errors.js';

// A cursor is a position in the account's commit-ordered event log (log.ts), bound to the subscription it was
// returned for: the audience (account, endpoint agent, credential), the event name and the arguments. It is
// base64url JSON, validated and not signed (as every cursor of the API, docs/adr/0033-cursors.md): reads are
// scoped by the audience anyway, so a forged one can only point into the caller's own log. One that does not
// parse, or belongs to another subscription, is -32602 naming `cursor`.

/** After every event of the log numbered up to `seq`. */
export interface Position {
  seq: string;
  /** When the position was taken (ms): a replay floor (maxAgeMs, retention) past it means events were skipped. */
  at: number;
}

export interface Binding {
  audience: string;
  name: string;
  arguments: Record<string, unknown>;
}

const body = z
  .object({
    v: z.literal(1),
    s: text().max(64),
    x: text().regex(/^\d{1,19}$/),
    t: z.number().int().nonnegative(),
  })
  .strict();

/** The subscription a cursor is bound to, hashed: the same audience, name and arguments give the same value. */
function bindingHash(b: Binding): string {
  const args = Object.keys(b.arguments)
    .sort()
    .map((key) => [key, b.arguments[key]]);
  return createHash('sha256')
    .update(JSON.stringify([b.audience, b.name, args]))
    .digest('base64url')
    .slice(0, 22);
}

export function encodeCursor(position: Position, binding: Binding): string {
  const value = { v: 1, s: bindingHash(binding), x: position.seq, t: position.at };
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor(cursor: string, binding: Binding): Position {
  let parsed: z.infer<typeof body>;
  try {
    if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw new Error('not base64url');
    parsed = body.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw invalidParams('cursor is not a cursor this server returned', { field: 'cursor' });
  }
  if (parsed.s !== bindingHash(binding)) {
    throw invalidParams('cursor belongs to another subscription (credential, event name or arguments)', {
      field: 'cursor',
    });
  }
  return { seq: parsed.x, at: parsed.t };
}
