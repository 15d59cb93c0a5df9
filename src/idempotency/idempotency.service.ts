import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { claimKey, completeKey, deleteExpiredKeys, findKey, releaseKey } from './idempotency.repository.js';

// Idempotency-Key semantics (docs/api-keys.md#idempotent-requests): the first request with a key runs and its 2xx
// response is kept for 24 h; the same key with the same request (credential, method, path, body) replays it;
// with another request it is 422 idempotency_key_reused; while the first is still running it is 409
// idempotency_key_in_use, however long it runs (its process holds the claim: src/idempotency/claim-holder.ts). A
// request that fails gives its key up, so a retry runs afresh.

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** JSON with object keys sorted at every depth: the same body whatever its key order or spacing. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const credentialOf = (p: Principal): string =>
  p.type === 'session' ? `user:${p.userId}` : p.oauth ? `oauth:${p.keyId}` : `key:${p.keyId}`;

export interface IdempotentRequest {
  principal: Principal;
  key: string;
  method: string;
  /** Path and query string. */
  url: string;
  body: unknown;
}

export interface Claim {
  accountId: string;
  keyHash: string;
  requestHash: string;
}

export type ClaimResult = { kind: 'claimed'; claim: Claim } | { kind: 'replay'; status: number; body: unknown };

/** Claims the key for this request, or answers the response to replay; throws 409 or 422. */
export async function claimIdempotencyKey(deps: Deps, req: IdempotentRequest): Promise<ClaimResult> {
  const { ttlMs } = deps.config.idempotency;
  const holder = await deps.claimHolder.current();
  const claim: Claim = {
    accountId: req.principal.accountId,
    keyHash: sha256(req.key),
    requestHash: sha256(canonicalJson([credentialOf(req.principal), req.method, req.url, req.body ?? null])),
  };
  // Twice at most: a row found taken may be swept (expired) before it is read.
  for (let i = 0; i < 2; i++) {
    if (await claimKey(deps.db, claim.accountId, claim.keyHash, claim.requestHash, holder, ttlMs))
      return { kind: 'claimed', claim };
    const row = await findKey(deps.db, claim.accountId, claim.keyHash);
    if (!row) continue;
    if (row.request_hash !== claim.requestHash) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was used in the last 24 hours for a different request (body, path or credential); use a new key for a new request',
      );
    }
    if (row.state === 'completed') return { kind: 'replay', status: row.response_status!, body: row.response_body };
    throw new AppError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still in progress; retry shortly',
      undefined,
      { 'Retry-After': '1' },
    );
  }
  throw new AppError('idempotency_key_in_use', 'This Idempotency-Key is changing hands; retry shortly', undefined, {
    'Retry-After': '1',
  });
}

/**
 * After the request ran: a 2xx response is kept for replay (with the fields in `redact` it has set to null: a
 * secret shown once is never stored; one the answer does not carry stays absent), anything else gives the key up.
 */
export async function settleIdempotencyKey(
  deps: Deps,
  claim: Claim,
  status: number,
  body: unknown,
  redact: readonly string[] = [],
): Promise<void> {
  const { accountId, keyHash, requestHash } = claim;
  if (status < 200 || status >= 300) return releaseKey(deps.db, accountId, keyHash, requestHash);
  const stored =
    redact.length && body !== null && typeof body === 'object'
      ? {
          ...(body as Record<string, unknown>),
          ...Object.fromEntries(redact.filter((f) => f in (body as object)).map((f) => [f, null])),
        }
      : body;
  await completeKey(deps.db, accountId, keyHash, requestHash, status, stored);
}

export async function abandonIdempotencyKey(deps: Deps, claim: Claim): Promise<void> {
  await releaseKey(deps.db, claim.accountId, claim.keyHash, claim.requestHash);
}

/** The sweep-idempotency-keys job: rows past their 24 hours, in batches. */
export async function sweepIdempotencyKeys(deps: Pick<Deps, 'db'>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteExpiredKeys(deps.db, 1000);
    total += n;
    if (n < 1000) return total;
  }
}
