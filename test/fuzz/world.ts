import { ACCOUNT_SCOPES, AGENT_SCOPES } from '../../src/auth/scopes.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgentKey } from '../helpers/keys.js';
import type { TestContext } from '../helpers/test-context.js';

// What the fuzz plays with: an account whose records it may change (ids of every kind, credentials of every
// type), and a control account whose rows must come out of the run exactly as they went in.

export type CredentialKind = 'session' | 'accountKey' | 'agentKey';

export interface World {
  ownerEmail: string;
  password: string;
  /** Ids by the path collection they appear after; the per-agent key belongs to ids.agents[0]. */
  ids: Ids;
  /** The control account's ids, used in paths to try to cross tenants. */
  foreign: Ids;
  creds: Record<CredentialKind, string>;
  inboxToken: string;
  /** Real cursors of several lists, to be sent to others. */
  cursors: string[];
  controlAccountId: string;
  /** Mints a credential again after the fuzz ended it (a logout, say). */
  refresh(kind: CredentialKind): Promise<void>;
}

const must = async <T>(res: Promise<{ status: number; body: T }>, what: string): Promise<T> => {
  const r = await res;
  if (r.status >= 300) throw new Error(`fuzz setup: ${what} answered ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

export type Ids = Awaited<ReturnType<typeof populate>>['ids'];

/** One account's worth of records of every kind; returns their ids by path collection. */
async function populate(api: Client, token: string) {
  const post = (path: string, body: unknown) => must(api.post<any>(path, { token, body }), `POST ${path}`);
  const agents = [(await post('/v1/agents', { name: 'A' })).id, (await post('/v1/agents', { name: 'B' })).id];
  const contact = await post('/v1/contacts', {
    email: `c-${agents[0]}@example.com`.toLowerCase(),
    metadata: { k: 'v' },
  });
  const inbox = await post('/v1/inboxes', {
    agentId: agents[0],
    channel: 'email',
    address: `in-${agents[0]}@example.com`.toLowerCase(),
  });
  const message = await post('/v1/messages', { inboxId: inbox.id, to: 'x@example.com', text: 'hello' });
  const run = (await post(`/v1/agents/${agents[0]}/chat`, { message: 'hi' })).run;
  const webhook = await post('/v1/webhooks', { url: 'https://93.184.216.34/hook', events: ['message.received'] });
  const polled = await post('/v1/webhooks', { kind: 'poll', events: ['message.received'] });
  await post(`/v1/webhooks/${webhook.id}/test`, {});
  const deliveries = (await must(api.get<any>(`/v1/webhooks/${webhook.id}/deliveries`, { token }), 'deliveries')).data;
  const domain = await post('/v1/domains', { name: `fuzz-${Math.random().toString(36).slice(2, 10)}.example.com` });
  const keys = [(await createAccountKey(api, token)).id, (await createAccountKey(api, token)).id];
  return {
    ids: {
      agents: agents as string[],
      runs: [run.id as string],
      contacts: [contact.id],
      inboxes: [inbox.id],
      inbound: [inbox.id],
      messages: [message.id],
      domains: [domain.id],
      api_keys: keys,
      webhooks: [webhook.id, polled.id],
      deliveries: deliveries.map((d: { id: string }) => d.id),
      integrations: ['smtp', 'sms-http'],
    },
    inboxToken: inbox.ingestToken as string,
  };
}

export async function buildWorld(t: TestContext): Promise<World> {
  const api = client(t.url);
  const owner = await signupAccount(api, 'Fuzz');
  const control = await signupAccount(api, 'Control');
  const mine = await populate(api, owner.token);
  const theirs = await populate(api, control.token);
  const agentId = mine.ids.agents[0]!;
  const creds: Record<CredentialKind, string> = {
    session: owner.token,
    accountKey: (await createAccountKey(api, owner.token, { scopes: [...ACCOUNT_SCOPES] })).key,
    agentKey: (await createAgentKey(api, owner.token, agentId, { scopes: [...AGENT_SCOPES] })).key,
  };
  const cursors: string[] = [];
  for (const path of ['/v1/agents', '/v1/api_keys', '/v1/feed', '/v1/logs', `/v1/agents/${agentId}/activity`]) {
    const page = await must(api.get<any>(`${path}?limit=1`, { token: owner.token }), path);
    if (page.nextCursor) cursors.push(page.nextCursor);
  }

  let refreshing = Promise.resolve();
  const probe = (kind: CredentialKind) => (kind === 'agentKey' ? `/v1/agents/${agentId}` : '/v1/event-types');
  const alive = async (kind: CredentialKind) => (await api.get(probe(kind), { token: creds[kind] })).status !== 401;
  const refreshOne = async (kind: CredentialKind): Promise<void> => {
    if (await alive(kind)) return;
    if (kind !== 'session') await refreshOne('session');
    if (kind === 'session') {
      creds.session = (
        await must(api.post<any>('/v1/auth/login', { body: { email: owner.email, password: owner.password } }), 'login')
      ).session.token;
    } else if (kind === 'accountKey') {
      creds.accountKey = (await createAccountKey(api, creds.session, { scopes: [...ACCOUNT_SCOPES] })).key;
    } else {
      creds.agentKey = (await createAgentKey(api, creds.session, agentId, { scopes: [...AGENT_SCOPES] })).key;
    }
  };

  return {
    ownerEmail: owner.email,
    password: owner.password,
    ids: mine.ids,
    foreign: theirs.ids,
    creds,
    inboxToken: mine.inboxToken,
    cursors,
    controlAccountId: control.accountId,
    refresh(kind) {
      refreshing = refreshing.then(() => refreshOne(kind)).catch(() => undefined);
      return refreshing;
    },
  };
}

const TENANT_TABLES = [
  'accounts',
  'activity',
  'agents',
  'api_keys',
  'audit_log',
  'contacts',
  'conversations',
  'credit_ledger',
  'domains',
  'events',
  'inboxes',
  'integrations',
  'messages',
  'notifications',
  'runs',
  'sessions',
  'users',
  'webhook_attempts',
  'webhook_deliveries',
  'webhooks',
];

/** Every row the control account owns, in a stable order, as JSON. */
export async function snapshotAccount(t: TestContext, accountId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TENANT_TABLES) {
    const column = table === 'accounts' ? 'id' : 'account_id';
    out[table] = JSON.stringify(await t.deps.db(table).where(column, accountId).orderBy('id'));
  }
  return out;
}
