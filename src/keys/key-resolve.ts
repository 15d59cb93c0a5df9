import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { now } from '../platform/clock.js';
import { touchKeyUsage } from './keys.repository.js';
import { loadKeyByHash } from './key-cache.js';
import type { RequestInfo, Resolved } from '../auth/principal.js';
import { ipAllowed } from '../auth/key-ip.js';
import { hashSecret, parseSecret } from '../auth/key-secret.js';
import type { KeyPrincipal } from '../auth/principal.js';

const invalid = () => new AppError('invalid_credential', 'The credential is not valid');

/**
 * Resolves an API key secret into a principal. The shape and checksum are checked before any lookup, so
 * malformed, truncated or invented strings never reach the database. The row comes from key-cache.ts, whose
 * entries are re-validated against Redis on every request, so deactivation, deletion, rotation and edits apply
 * on the next request on every instance. Expiry and rotation grace are checked against the clock here.
 */
export async function resolveKey(deps: Deps, token: string, info: RequestInfo): Promise<Resolved> {
  const claimedType = parseSecret(token);
  if (!claimedType) throw invalid();
  const key = await loadKeyByHash(deps, hashSecret(token));
  if (!key || key.key_type !== claimedType) throw invalid();

  const at = now();
  if (key.via_previous && (!key.rotation_grace_until || key.rotation_grace_until.getTime() <= at.getTime()))
    throw invalid();
  if (key.status === 'deactivated') throw new AppError('key_deactivated', 'This API key has been deactivated');
  // The sweep marks expired keys every minute; the request checks the time itself so there is no gap.
  if (key.status === 'expired' || (key.expires_at && key.expires_at.getTime() <= at.getTime())) {
    throw new AppError('key_expired', 'This API key has expired');
  }
  if (!ipAllowed(key.allowed_ips, info.ip)) {
    throw new AppError('ip_not_allowed', 'This API key may not be used from this IP address', { ip: info.ip });
  }

  recordUsage(deps, key.account_id, key.id, info.ip, at.getTime());

  const principal: KeyPrincipal = {
    type: 'key',
    accountId: key.account_id,
    keyId: key.id,
    keyType: key.key_type,
    agentId: key.key_type === 'agent' ? key.agent_id : null,
    scopes: [...key.scopes], // the row may be a shared cache entry
    spendCapCredits: key.spend_cap_credits,
  };
  const headers = key.via_previous
    ? { Deprecation: 'true', Sunset: key.rotation_grace_until!.toUTCString() }
    : undefined;
  return { principal, headers };
}

// lastUsedAt/lastUsedIp to the minute without a write per request: each instance remembers when it last wrote
// a key's usage and writes at most once a minute per key, off the request path; the UPDATE itself is also
// conditional (last_used_at older than a minute), so N instances cost at most N no-op statements a minute.
// This memo only throttles a bookkeeping write; it never decides whether a key is accepted.
const lastWrites = new WeakMap<Deps, Map<string, number>>();
const USAGE_RESOLUTION_MS = 60_000;

function recordUsage(deps: Deps, accountId: string, keyId: string, ip: string, at: number): void {
  let memo = lastWrites.get(deps);
  if (!memo) lastWrites.set(deps, (memo = new Map()));
  const last = memo.get(keyId);
  if (last !== undefined && at - last < USAGE_RESOLUTION_MS) return;
  if (memo.size > 50_000) memo.clear();
  memo.set(keyId, at);
  touchKeyUsage(deps.db, accountId, keyId, ip).catch((err: unknown) => {
    memo.delete(keyId);
    deps.logger.warn({ err: (err as Error).message, keyId }, 'could not record key usage');
  });
}
