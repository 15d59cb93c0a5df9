import type { Middleware } from 'koa';
import { idempotencyKeyHeader } from '../../idempotency/idempotency.schema.js';
import {
  abandonIdempotencyKey,
  claimIdempotencyKey,
  settleIdempotencyKey,
} from '../../idempotency/idempotency.service.js';
import type { Deps } from '../../app/deps.js';
import { parseInput } from '../../platform/validation.js';
import type { AppContext, AppState } from '../context.js';
import { principalOf } from './authenticate.js';

/** A route that honours Idempotency-Key; `redact` names response fields (secrets shown once) never stored. */
export interface IdempotencyOptions {
  redact?: readonly string[];
}

/**
 * Idempotency-Key on one route, after its access check (so the key is the credential's account's) and before its
 * handler. Without the header the route runs as always; see src/idempotency/idempotency.service.ts.
 */
export function idempotency(deps: Deps, opts: IdempotencyOptions): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.headers['idempotency-key'];
    if (header === undefined) return next();
    const key = parseInput(idempotencyKeyHeader, { 'Idempotency-Key': header })['Idempotency-Key'];
    const principal = principalOf(ctx as AppContext);
    const result = await claimIdempotencyKey(deps, {
      principal,
      key,
      method: ctx.method,
      url: ctx.url,
      body: ctx.request.body,
    });
    if (result.kind === 'replay') {
      ctx.status = result.status;
      ctx.body = result.body ?? undefined;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (err) {
      await abandonIdempotencyKey(deps, result.claim).catch((e: Error) =>
        ctx.state.log.warn({ err: e.message }, 'idempotency key not released'),
      );
      throw err;
    }
    // Stored before the response leaves: a retry that arrives after the answer finds it, not an in-flight claim.
    await settleIdempotencyKey(deps, result.claim, ctx.status, ctx.body, opts.redact);
  };
}
