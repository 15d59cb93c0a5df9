import createClient from 'openapi-fetch';
import type { paths } from './generated/api-types.js';

// A short flow through the API with a client typed from the served OpenAPI document (openapi-typescript +
// openapi-fetch). test/integration/openapi-client.test.ts generates ./generated/api-types.ts from the document,
// type-checks this file against it, then runs it: the document is enough to write a correct client.

type Client = ReturnType<typeof createClient<paths>>;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function runTypedFlow(baseUrl: string) {
  const client: Client = createClient<paths>({ baseUrl });
  const email = `typed-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  const signup = must(
    await client.POST('/v1/auth/signup', { body: { accountName: 'Typed', email, password: 'correct horse battery' } }),
    'signup',
  );
  const session: string = signup.session.token;

  const agent = must(
    await client.POST('/v1/agents', {
      headers: bearer(session),
      body: { name: 'Typed agent', config: { autoReply: 'hi' } },
    }),
    'create agent',
  );
  const agentId: string = agent.id;

  const minted = must(
    await client.POST('/v1/agents/{agentId}/api-keys', {
      params: { path: { agentId }, header: { 'Idempotency-Key': `mint-${agentId}` } },
      headers: bearer(session),
      body: { name: 'typed key', scopes: ['agent:config:read'] },
    }),
    'mint per-agent key',
  );
  if (!minted.key) throw new Error('a new key shows its secret');
  const agentKey: string = minted.key;

  const own = must(
    await client.GET('/v1/agents/{agentId}', { params: { path: { agentId } }, headers: bearer(agentKey) }),
    'read own agent',
  );

  // The per-agent key off its agent: the document's error shape, with a code it lists for 403.
  const denied = await client.GET('/v1/agents', { headers: bearer(agentKey) });
  const deniedCode = denied.error?.error.code;

  const webhook = must(
    await client.POST('/v1/webhooks', {
      headers: bearer(session),
      body: { url: 'https://93.184.216.34/hooks', events: ['agent.updated'] },
    }),
    'create webhook',
  );
  const listed = must(
    await client.GET('/v1/webhooks', { params: { query: { limit: 10 } }, headers: bearer(session) }),
    'list webhooks',
  );

  return {
    agentId,
    ownAgentName: own.name,
    keyType: minted.keyType,
    keyPrefix: minted.keyPrefix,
    deniedStatus: denied.response.status,
    deniedCode,
    webhookSecret: webhook.secret,
    listedWebhookIds: listed.data.map((w) => w.id),
    hasMore: listed.hasMore,
  };
}

/** Never called: each line is a mistake the generated types must refuse (tsc fails on an unused expect-error). */
export function mistakesTheTypesCatch(client: Client) {
  // @ts-expect-error an agent needs a name
  void client.POST('/v1/agents', { body: { config: {} } });
  // @ts-expect-error no such route
  void client.GET('/v1/agentz');
  // @ts-expect-error a per-agent key route takes the agent id in the path
  void client.POST('/v1/agents/{agentId}/api-keys', { body: { name: 'k' } });
  // @ts-expect-error events is a list of names
  void client.POST('/v1/webhooks', { body: { url: 'https://example.com/', events: 'agent.updated' } });
  // @ts-expect-error a typo in an event name
  void client.POST('/v1/webhooks', { body: { url: 'https://example.com/', events: ['agent.updatd'] } });
  // @ts-expect-error the path parameter is named after its collection
  void client.GET('/v1/webhooks/{webhookId}', { params: { path: { id: 'wh_1' } } });
}
