import { z } from 'zod';
import type { Deps } from '../../app/deps.js';
import type { Resolved } from '../../auth/principal.js';
import { AppError } from '../../platform/errors.js';
import { text } from '../../platform/input.js';
import {
  argumentsSchema,
  filterOf,
  isCatalogued,
  offeredEvent,
  type EventsAudience,
  type OfferedEvent,
} from './catalog.js';
import type { Binding } from './cursor.js';
import { forbidden, invalidParams, unknownEvent } from './errors.js';

// What every events method is given, and the subscription (name + arguments) poll and stream both read.

export interface EventsContext {
  deps: Deps;
  audience: EventsAudience;
  /**
   * Resolves the request's credential again, as the HTTP layer resolves it on any request (its cache follows Redis
   * epochs, so on every process at once): a poll or stream re-checks it while it waits. The token stays there.
   */
  resolveAgain: () => Promise<Resolved>;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** Who the audience is, for cursors and stream limits: the account, the endpoint's agent, the credential. */
export function audienceKey({ principal, agentId }: EventsAudience): string {
  const credential = principal.type === 'key' ? principal.keyId : `user:${principal.userId}`;
  return `${principal.accountId}:${agentId ?? '-'}:${credential}`;
}

/**
 * Is the credential still what it was? A key deactivated, deleted or expired, or an OAuth grant revoked, is
 * refused by the resolver as on any request (its cache follows Redis epochs, so on every process at once):
 * -32012. Anything else (Redis or Postgres away) is thrown as is, a passing failure.
 */
export async function recheckCredential(ctx: EventsContext): Promise<void> {
  const was = ctx.audience.principal;
  let now;
  try {
    now = (await ctx.resolveAgain()).principal;
  } catch (err) {
    if (err instanceof AppError) throw forbidden(`Access revoked: ${err.message}`);
    throw err;
  }
  const same =
    now.accountId === was.accountId &&
    now.type === was.type &&
    (now.type === 'key' ? was.type === 'key' && now.keyId === was.keyId : was.type === 'session');
  if (!same) throw forbidden('Access revoked: the credential changed');
}

export interface Subscription {
  event: OfferedEvent;
  filter: Record<string, string>;
  binding: Binding;
}

const subscriptionParams = z.looseObject({
  name: text().max(100),
  arguments: z.record(text(), z.unknown()).nullish(),
});

/** An event and arguments as an audience subscribes to them, in any mode: the arguments as given, and the filter. */
export interface ReadArguments {
  event: OfferedEvent;
  /** The arguments given, keys sorted: what a cursor is bound to and a webhook subscription's id derived from. */
  arguments: Record<string, string>;
  /** The payload filter they make, with the audience's own fields last (catalog.ts filterOf). */
  filter: Record<string, string>;
}

/** The event `name` with `args`, as the audience may subscribe to it: -32602, -32011 or -32012 before anything. */
export function readEventArguments(audience: EventsAudience, name: string, args: unknown): ReadArguments {
  if (!isCatalogued(name)) throw unknownEvent(name);
  const event = offeredEvent(audience, name);
  if (!event) throw forbidden(`This credential may not subscribe to ${name} on this endpoint`);
  const parsed = argumentsSchema(event).safeParse(args ?? {});
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: ['arguments', ...i.path].join('.'), message: i.message }));
    throw invalidParams("arguments do not match the event's inputSchema", { fields });
  }
  const values = parsed.data as Record<string, string | undefined>;
  const given = Object.keys(values)
    .sort()
    .filter((key) => values[key] !== undefined)
    .map((key) => [key, values[key]!] as const);
  return { event, arguments: Object.fromEntries(given), filter: filterOf(event, values) };
}

/** The subscription a poll or stream names: -32602, -32011 or -32012 before anything is read. */
export function readSubscription(ctx: EventsContext, params: unknown): Subscription {
  const parsed = subscriptionParams.safeParse(params);
  if (!parsed.success) throw invalidParams('name must be an event name (events/list)', { field: 'name' });
  const { name } = parsed.data;
  const read = readEventArguments(ctx.audience, name, parsed.data.arguments);
  const binding = { audience: audienceKey(ctx.audience), name, arguments: read.arguments };
  return { event: read.event, filter: read.filter, binding };
}

/** A non-negative whole number param, or absent; anything else is -32602 naming it. */
export function wholeParam(params: unknown, field: string, min = 0): number | undefined {
  const value = (params as Record<string, unknown> | undefined)?.[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidParams(`${field} must be a whole number of at least ${min}`, { field });
  }
  return value;
}

/** The cursor param: a string, or null/absent ("from now"). */
export function cursorParam(params: unknown): string | null {
  const value = (params as Record<string, unknown> | undefined)?.cursor;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidParams('cursor must be a string or null', { field: 'cursor' });
  return value;
}
