import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { now } from '../platform/clock.js';
import { touchKeyUsage } from './keys.repository.js';
import { loadKeyByHash, type ResolvedKeyRow } from './key-cache.js';
import { enforceNamedLimits, type LimitOwner } from './named-limits.js';
import { isKeyOutcome } from './key-usage.js';
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

  try {
    return await admit(deps, key, info);
  } catch (err) {
    // A refusal of a known key counts in its usage (a deleted key or an ended old secret is no key any more).
    if (err instanceof AppError && isKeyOutcome(err.code)) deps.keyUsage.count(key.account_id, key.id, err.code);
    throw err;
  }
}

async function admit(deps: Deps, key: ResolvedKeyRow, info: RequestInfo): Promise<Resolved> {
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

  const owners = limitOwners(key);
  if (owners.length) await enforceNamedLimits(deps, owners);

  recordUsage(deps, key.account_id, key.id, info.ip, at.getTime());

  const principal: KeyPrincipal = {
    type: 'key',
    accountId: key.account_id,
    keyId: key.id,
    keyType: key.key_type,
    agentId: key.key_type === 'agent' ? key.agent_id : null,
    scopes: [...key.scopes], // the row may be a shared cache entry
    spendCapCredits: key.spend_cap_credits,
    namedLimits: owners.length > 0,
  };
  const headers = key.via_previous
    ? { Deprecation: 'true', Sunset: key.rotation_grace_until!.toUTCString() }
    : undefined;
  return { principal, headers };
}

/** Whose named limits this request counts against: the key's own, and its agent's (shared by all its keys). */
function limitOwners(key: ResolvedKeyRow): LimitOwner[] {
  const owners: LimitOwner[] = [];
  if (key.rate_limits.length) owners.push({ kind: 'key', id: key.id, limits: key.rate_limits });
  if (key.agent_id && key.agent_rate_limits?.length)
    owners.push({ kind: 'agent', id: key.agent_id, limits: key.agent_rate_limits });
  return owners;
}

/** lastUsedAt/lastUsedIp to the minute, through this runtime's memo (src/platform/usage-memo.ts). */
function recordUsage(deps: Deps, accountId: string, keyId: string, ip: string, at: number): void {
  if (!deps.usageMemos.keys.due(keyId, at)) return;
  touchKeyUsage(deps.db, accountId, keyId, ip).catch((err: unknown) => {
    deps.usageMemos.keys.forget(keyId);
    deps.logger.warn({ err: (err as Error).message, keyId }, 'could not record key usage');
  });
}
