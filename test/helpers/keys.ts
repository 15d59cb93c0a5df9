import { invalidateKeyHashes } from '../../src/keys/key-cache.js';
import { newId } from '../../src/platform/ids.js';
import type { Client } from './http.js';
import type { TestContext } from './test-context.js';

export interface CreatedKey {
  id: string;
  /** The plaintext secret, shown once. */
  key: string;
  body: any;
}

async function expectCreated(res: { status: number; body: any }, what: string): Promise<CreatedKey> {
  if (res.status !== 201) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, key: res.body.key as string, body: res.body };
}

/** Creates an account key with an admin session (default: name 'test key', default scopes). */
export async function createAccountKey(
  api: Client,
  sessionToken: string,
  body: Record<string, unknown> = {},
): Promise<CreatedKey> {
  const res = await api.post('/v1/api_keys', { token: sessionToken, body: { name: 'test key', ...body } });
  return expectCreated(res, 'createAccountKey');
}

/** Mints a per-agent key with an admin session or, under the account_keys policy, an account key. */
export async function createAgentKey(
  api: Client,
  token: string,
  agentId: string,
  body: Record<string, unknown> = {},
): Promise<CreatedKey> {
  const res = await api.post(`/v1/agents/${agentId}/api-keys`, { token, body: { name: 'agent key', ...body } });
  return expectCreated(res, 'createAgentKey');
}

/** Inserts an agent row directly (independent of the agents REST routes). Returns its id. */
export async function createAgent(
  t: TestContext,
  accountId: string,
  name = 'Agent',
  config: Record<string, unknown> = {},
): Promise<string> {
  const id = newId('agt');
  await t.deps.db('agents').insert({ id, account_id: accountId, name, config: JSON.stringify(config) });
  return id;
}

/**
 * Changes a key row directly (to simulate time passing: an expiry or a grace end in the past) and invalidates
 * the API instances' cached copies the way every lifecycle change does.
 */
export async function updateKeyRow(t: TestContext, keyId: string, patch: Record<string, unknown>): Promise<void> {
  const row = await t.deps.db('api_keys').where({ id: keyId }).first();
  await invalidateKeyHashes(t.deps, [row.secret_hash, row.previous_secret_hash]);
  await t.deps.db('api_keys').where({ id: keyId }).update(patch);
}

/** Every scope a per-agent key can hold, written out (not read from src) so that a scope added or lost shows. */
export const ALL_AGENT_SCOPES = [
  'agent:config:read',
  'agent:conversations:read',
  'agent:activity:read',
  'agent:config:write',
  'agent:trigger',
];
