import { client, signupAccount } from './http.js';
import { createAccountKey, createAgent, createAgentKey, type CreatedKey } from './keys.js';
import type { TestContext } from './test-context.js';

export interface SetupAccountOptions {
  /** The account's name at signup. */
  name?: string;
  /** An account key made with the owner's session (its body: scopes, name …). */
  accountKey?: Record<string, unknown>;
  /** An agent row, inserted directly. */
  agent?: { name?: string; config?: Record<string, unknown> };
  /** A per-agent key for that agent (its body: scopes, name …); needs `agent`. */
  agentKey?: Record<string, unknown>;
  /** A webhook subscription created through the API (201 expected). */
  webhook?: { url: string; events?: string[] } & Record<string, unknown>;
}

export interface SetupAccount {
  token: string;
  accountId: string;
  userId: string;
  email: string;
  password: string;
  accountKey?: CreatedKey;
  agentId?: string;
  agentKey?: CreatedKey;
  webhook?: { id: string; secret: string };
}

type With<K extends keyof SetupAccount> = SetupAccount & Required<Pick<SetupAccount, K>>;
type Made<O extends SetupAccountOptions> = SetupAccount &
  (O extends { accountKey: object } ? With<'accountKey'> : unknown) &
  (O extends { agent: object } ? With<'agentId'> : unknown) &
  (O extends { agentKey: object } ? With<'agentKey'> : unknown) &
  (O extends { webhook: object } ? With<'webhook'> : unknown);

/**
 * What most tests start from: a signed-up owner (session token), and as asked an account key, an agent with its
 * own key, and a webhook subscription to a receiver.
 */
export async function setupAccount<O extends SetupAccountOptions>(t: TestContext, opts: O = {} as O): Promise<Made<O>> {
  const api = client(t.url);
  const made: SetupAccount = await signupAccount(api, opts.name);
  if (opts.accountKey) made.accountKey = await createAccountKey(api, made.token, opts.accountKey);
  if (opts.agent) made.agentId = await createAgent(t, made.accountId, opts.agent.name, opts.agent.config);
  if (opts.agentKey) {
    if (!made.agentId) throw new Error('setupAccount: agentKey needs agent');
    made.agentKey = await createAgentKey(api, made.token, made.agentId, opts.agentKey);
  }
  if (opts.webhook) {
    const body = { events: ['message.received'], ...opts.webhook };
    const res = await api.post('/v1/webhooks', { token: made.token, body });
    if (res.status !== 201) throw new Error(`setupAccount: webhook ${res.status} ${JSON.stringify(res.body)}`);
    made.webhook = res.body as { id: string; secret: string };
  }
  return made as Made<O>;
}
