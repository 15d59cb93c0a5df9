import type { Deps } from '../app/deps.js';
import { now } from '../platform/clock.js';
import { recordAudit } from '../audit/audit.repository.js';
import { operationalEvent } from '../events/event-payloads.js';
import { insertNotification } from '../notifications/notifications.repository.js';
import { transactWithEventsOfAccounts } from '../events/emit.js';
import { keyEventRef } from './key-events.js';
import { claimKeysToWarn, clearEndedGraces, expireDueKeys } from './keys-sweep.repository.js';

const BATCH = 500;
const WARN_AHEAD_MS = 7 * 24 * 3600 * 1000;

export interface KeySweepResult {
  expired: number;
  gracesEnded: number;
  warned: number;
}

/**
 * The every-minute key sweep: marks keys past expiresAt as expired (the request path already rejects them by
 * time; this makes the state visible and audited), drops old secrets whose rotation grace has ended, and warns
 * the account once, seven days ahead, about each key that is about to expire. Each batch is its own
 * transaction, so a long sweep never holds many locks, and SKIP LOCKED lets two sweepers share the work. The
 * api_key.expired and api_key.expiring events are written in the batch's transaction, with the UPDATE that
 * claims each key, so each is emitted once whatever the number of sweepers.
 */
export async function sweepExpiredKeys(deps: Deps): Promise<KeySweepResult> {
  const result: KeySweepResult = { expired: 0, gracesEnded: 0, warned: 0 };
  const at = now();

  for (;;) {
    const n = await transactWithEventsOfAccounts(deps, async (trx, emitFor) => {
      const rows = await expireDueKeys(trx, at, BATCH);
      for (const k of rows) {
        await emitFor(k.account_id, operationalEvent('api_key.expired', keyEventRef(k)));
        await recordAudit(
          trx,
          { type: 'system', accountId: k.account_id },
          {
            action: 'api_key.expired',
            targetType: 'api_key',
            targetId: k.id,
            details: {
              name: k.name,
              keyType: k.key_type,
              agentId: k.agent_id,
              expiresAt: k.expires_at?.toISOString() ?? null,
            },
          },
        );
      }
      return rows.length;
    });
    result.expired += n;
    if (n < BATCH) break;
  }

  for (;;) {
    const n = await clearEndedGraces(deps.db, at, BATCH);
    result.gracesEnded += n;
    if (n < BATCH) break;
  }

  const horizon = new Date(at.getTime() + WARN_AHEAD_MS);
  for (;;) {
    const n = await transactWithEventsOfAccounts(deps, async (trx, emitFor) => {
      const rows = await claimKeysToWarn(trx, at, horizon, BATCH);
      for (const k of rows) {
        const expiresAt = k.expires_at!.toISOString();
        await emitFor(k.account_id, operationalEvent('api_key.expiring', { ...keyEventRef(k), expiresAt }));
        await insertNotification(trx, k.account_id, {
          kind: 'api_key.expiring',
          title: `API key "${k.name}" expires soon`,
          body: `The ${k.key_type} key "${k.name}" (${k.id}) expires at ${expiresAt}. Create a replacement or extend its expiresAt before then.`,
          data: { keyId: k.id, keyType: k.key_type, agentId: k.agent_id, expiresAt },
          dedupeKey: `api_key.expiring:${k.id}:${k.expires_at!.getTime()}`,
        });
      }
      return rows.length;
    });
    result.warned += n;
    if (n < BATCH) break;
  }
  return result;
}
