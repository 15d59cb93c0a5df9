import { http } from './http.js';
import type { Kind, KindField } from './kind.js';
import { nats } from './nats.js';
import { poll } from './poll.js';
import { rabbitmq } from './rabbitmq.js';
import { redis } from './redis.js';
import { stream } from './stream.js';

// The destination kinds, one module each (kind.ts says what a module declares). A new kind is its module and one
// line here; what it needs in the database is a migration widening the webhooks.kind CHECK.
export const KINDS = [http, stream, poll, rabbitmq, nats, redis] as const;

/** A subscription's kind of destination, as its row names it. */
export type DestinationKind = (typeof KINDS)[number]['name'];

const byName: ReadonlyMap<string, Kind<DestinationKind>> = new Map(KINDS.map((k) => [k.name, k]));

/** The kind named `name` (a row's kind is always one of them: the CHECK constraint holds it to the list). */
export const kindNamed = (name: string): Kind<DestinationKind> => {
  const kind = byName.get(name);
  if (!kind) throw new Error(`unknown destination kind ${name}`);
  return kind;
};

export const isKind = (name: string): name is DestinationKind => byName.has(name);

/** Every kind's name, in the registry's order, for an enum. */
export const KIND_NAMES = KINDS.map((k) => k.name) as [DestinationKind, ...DestinationKind[]];

/** The kinds a client creates with POST /v1/webhooks. */
export const CREATED_KINDS = KINDS.filter((k) => k.created);
export const CREATED_KIND_NAMES = CREATED_KINDS.map((k) => k.name) as [DestinationKind, ...DestinationKind[]];

/** Every kind's own fields, once each (two kinds may share a field name only with the same meaning). */
export const KIND_FIELDS: readonly KindField[] = [
  ...new Map(KINDS.flatMap((k) => k.fields).map((f) => [f.name, f])).values(),
];

/** The kinds whose consumer takes its deliveries (a poll): nothing is sent to them, nothing is due. */
export const PULLED_KINDS: readonly string[] = KINDS.filter((k) => k.pulled).map((k) => k.name);

export const isPulledKind = (kind: string): boolean => PULLED_KINDS.includes(kind);

/** SQL: whether the subscription `alias` is of a pulled kind (the fan-out writes its deliveries waiting). */
export const isPulledKindSql = (alias: string): string =>
  `${alias}.kind IN (${PULLED_KINDS.map((k) => `'${k}'`).join(', ')})`;
