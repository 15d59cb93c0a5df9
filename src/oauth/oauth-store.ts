import type { Adapter, AdapterPayload } from 'oidc-provider';
import { sha256Hex, type Sealer } from '../platform/crypto.js';
import type { Deps } from '../app/deps.js';
import { deleteGrantByHash } from './grants.repository.js';
import {
  consumeStored,
  deleteExpiredStored,
  deleteStored,
  deleteStoredByGrant,
  findStored,
  findStoredByUid,
  upsertStored,
} from './store.repository.js';
import { now } from '../platform/clock.js';
import { transaction } from '../platform/transaction.js';

// oidc-provider's storage adapter, over our Postgres: nothing lives in process memory, so every API instance
// answers every step of a flow. An artifact's id (for opaque tokens and codes the id IS the credential) is
// stored as its SHA-256 only, like API keys; its grant id and session uid too. The payload, which repeats the
// id and may hold a confidential client's secret, is sealed with AES-256-GCM under a key derived from APP_SECRET.

const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 1000;

export type StoreDeps = Pick<Deps, 'db' | 'sealers' | 'logger'>;

export const hashOAuthId = (id: string): string => sha256Hex(id);

/** A stored payload, unsealed with the runtime's `sealers.oauthStore` (the access-token lookup reads it too). */
export const openStoredPayload = (sealer: Sealer, sealed: string): AdapterPayload =>
  JSON.parse(sealer.open(sealed)) as AdapterPayload;

/** The error a lost consume throws: the library's `invalid_grant`, built by the caller that loads the library. */
export type ReplayError = (model: string) => Error;

export function createStoreAdapter(deps: StoreDeps, replayError: ReplayError): new (model: string) => Adapter {
  const sealer = deps.sealers.oauthStore;
  let lastPrune = 0;

  // Expired rows are invisible to reads; deleting them is bookkeeping, done off the request path at most once
  // a minute per instance so no sweep job is needed.
  const pruneSoon = () => {
    const at = now().getTime();
    if (at - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = at;
    deleteExpiredStored(deps.db, PRUNE_BATCH).catch((err: unknown) =>
      deps.logger.warn({ err: (err as Error).message }, 'could not prune the OAuth store'),
    );
  };

  const open = (row: { payload: string; consumed_at: Date | null } | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    const payload = openStoredPayload(sealer, row.payload);
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  };

  return class StoreAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await upsertStored(deps.db, {
        model: this.model,
        idHash: hashOAuthId(id),
        payload: sealer.seal(JSON.stringify(payload)),
        // A Grant is its own grant; every other artifact names the grant it stems from.
        grantIdHash: this.model === 'Grant' ? hashOAuthId(id) : payload.grantId ? hashOAuthId(payload.grantId) : null,
        uidHash: payload.uid ? hashOAuthId(payload.uid) : null,
        expiresAt: expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null,
      });
      pruneSoon();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return open(await findStored(deps.db, this.model, hashOAuthId(id)));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return open(await findStoredByUid(deps.db, this.model, hashOAuthId(uid)));
    }

    // The device flow is not enabled.
    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined;
    }

    /**
     * The library reads an artifact, sees it unconsumed, then calls consume: concurrent exchanges of one code
     * (or refreshes with one token) all pass that read. The conditional UPDATE lets exactly one of them through;
     * every other one is a replay, so it revokes the grant (as the library does for a replay it sees) and fails
     * with invalid_grant before any token is issued. Tokens the winner saves afterwards belong to a revoked
     * grant and are refused on use (see findAccessTokenWithGrant and the library's grant lookup on refresh).
     */
    async consume(id: string): Promise<void> {
      const { outcome, grantIdHash } = await consumeStored(deps.db, this.model, hashOAuthId(id));
      if (outcome === 'consumed') return;
      if (grantIdHash) await revokeGrantByHash(deps, grantIdHash);
      throw replayError(this.model);
    }

    async destroy(id: string): Promise<void> {
      await deleteStored(deps.db, this.model, hashOAuthId(id));
    }

    /**
     * The library revokes a whole grant when a rotated refresh token or a used code is replayed, and when a
     * token is revoked: Switchboard's grant row goes with it, so the grant list never shows a dead grant.
     */
    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrantByHash(deps, hashOAuthId(grantId));
    }
  };
}

async function revokeGrantByHash(deps: StoreDeps, grantIdHash: string): Promise<void> {
  await transaction(deps.db, async (trx) => {
    await deleteGrantByHash(trx, grantIdHash);
    await deleteStoredByGrant(trx, grantIdHash);
  });
}
