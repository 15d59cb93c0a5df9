import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Hostile input gets a 4xx, never a 500 (docs/api-keys.md#input-limits): text Postgres cannot store, cursors
// taken from another list or forged, and JSON nested deep enough to overflow a recursive size check.
// Connections and the database's last line of defence are in hostile-connections.test.ts.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
let webhookId: string;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId);
  await createAgent(t, owner.accountId, 'Second');
  const hook = await api.post('/v1/webhooks', {
    token: owner.token,
    body: { url: 'https://93.184.216.34/hooks', events: ['message.received'] },
  });
  webhookId = hook.body.id;
});
afterAll(() => t?.close());

/** A 400 validation_error whose details name `field`. */
function expectFieldError(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
}

const rawJson = (text: string) => ({ raw: text, headers: { 'content-type': 'application/json' } });
const count = async (table: string) =>
  Number((await t.deps.db(table).where({ account_id: owner.accountId }).count({ n: '*' }))[0]!.n);

describe('cause 1: a NUL character anywhere a client can put text is a 400 naming the field', () => {
  it('in a path id', async () => {
    expectFieldError(await api.get('/v1/contacts/ct_abc%00', { token: owner.token }), 'contactId');
    expectFieldError(await api.get(`/v1/agents/${agentId}/runs/run_x%00`, { token: owner.token }), 'runId');
  });

  it('in a query value and in a cursor', async () => {
    expectFieldError(await api.get('/v1/messages?agentId=%00', { token: owner.token }), 'agentId');
    expectFieldError(await api.get('/v1/agents?cursor=%00', { token: owner.token }), 'cursor');
  });

  it('in a body string, writing nothing and charging nothing', async () => {
    const before = {
      runs: await count('runs'),
      messages: await count('messages'),
      credits: (await api.get('/v1/billing', { token: owner.token })).body.creditsBalance,
    };
    expectFieldError(
      await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: '\u0000'.repeat(50) } }),
      'message',
    );
    const after = {
      runs: await count('runs'),
      messages: await count('messages'),
      credits: (await api.get('/v1/billing', { token: owner.token })).body.creditsBalance,
    };
    expect(after).toEqual(before);
  });

  it('in a value stored as jsonb (an integration username)', async () => {
    const body = {
      host: 'smtp.mailhost.example',
      port: 587,
      username: 'mail\u0000er',
      password: 'pw-123456',
      from: 'hello@acme.example',
    };
    expectFieldError(await api.post('/v1/integrations/smtp', { token: owner.token, body }), 'username');
    expect(await count('integrations')).toBe(0);
  });
});

describe('cause 2: a lone UTF-16 surrogate in JSON is a 400 naming the field', () => {
  it('as a string nested in an agent config, as a key, and as a plain field', async () => {
    expectFieldError(
      await api.post('/v1/agents', { token: owner.token, ...rawJson('{"name":"a","config":{"k":["x","\\udc00"]}}') }),
      'config.k.1',
    );
    expectFieldError(
      await api.patch(`/v1/agents/${agentId}`, { token: owner.token, ...rawJson('{"config":{"\\ud800":1}}') }),
      'config.\ud800',
    );
    expectFieldError(await api.post('/v1/agents', { token: owner.token, ...rawJson('{"name":"\\udc00"}') }), 'name');
    expectFieldError(
      await api.post('/v1/contacts', {
        token: owner.token,
        ...rawJson('{"email":"a@example.com","metadata":{"m":"\\ud83d"}}'),
      }),
      'metadata.m',
    );
  });

  it('while a surrogate pair (an emoji) is stored and returned as it was', async () => {
    const res = await api.post('/v1/agents', {
      token: owner.token,
      body: { name: 'emoji 😀', config: { greeting: '👋' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'emoji 😀', config: { greeting: '👋' } });
  });
});

describe('causes 3 and 4: cursors are judged in full before they reach SQL', () => {
  const forged = (t: string, id: string) => Buffer.from(JSON.stringify({ t, id })).toString('base64url');

  it('a cursor of another list is a 400, including on a list keyed by uuid', async () => {
    const agents = await api.get('/v1/agents?limit=1', { token: owner.token });
    expect(agents.body.nextCursor).toEqual(expect.any(String));
    for (const path of [
      `/v1/webhooks/${webhookId}/deliveries`,
      `/v1/webhooks/${webhookId}/attempts`,
      '/v1/contacts',
      '/v1/feed',
    ]) {
      expectFieldError(await api.get(`${path}?cursor=${agents.body.nextCursor}`, { token: owner.token }), 'cursor');
    }
    const uuidCursor = forged(new Date().toISOString(), '7d4e3a52-3d0c-4c45-9d4a-2b1f0f6f6a11');
    expect(
      (await api.get(`/v1/webhooks/${webhookId}/deliveries?cursor=${uuidCursor}`, { token: owner.token })).status,
    ).toBe(200);
    expectFieldError(await api.get(`/v1/agents?cursor=${uuidCursor}`, { token: owner.token }), 'cursor');
  });

  it('a timestamp Date.parse accepts but Postgres refuses is a 400 on every paginated list', async () => {
    const kinds = [
      'act',
      'agt',
      'key',
      'log',
      'ct',
      'conv',
      'dom',
      'evt',
      'inb',
      'msg',
      'ntf',
      'usr',
      'att',
      'wh',
      'ogr',
      'plk',
    ];
    const ids = [...kinds.map((k) => `${k}_Abc123`), '7d4e3a52-3d0c-4c45-9d4a-2b1f0f6f6a11'];
    const times = [
      '2020',
      '0',
      '-1',
      '2000-02-30T00:00:00Z',
      '2000-02-30T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      '-271821-04-20T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '2020-01-01T24:00:00.000Z',
    ];
    const lists = await paginatedLists();
    expect(lists.length).toBeGreaterThanOrEqual(20);
    for (const path of lists) {
      // The one id kind this list accepts, found with a sound timestamp; then every bad timestamp with it.
      const sound = await Promise.all(
        ids.map((id) => api.get(`${path}?cursor=${forged('2020-01-01T00:00:00.000Z', id)}`, { token: owner.token })),
      );
      const accepted = ids.filter((_, i) => sound[i]!.status === 200);
      expect(accepted, path).toHaveLength(1);
      for (const res of sound.filter((r) => r.status !== 200)) expectFieldError(res, 'cursor');
      const results = await Promise.all(
        times.map((time) => api.get(`${path}?cursor=${forged(time, accepted[0]!)}`, { token: owner.token })),
      );
      for (const res of results) expectFieldError(res, 'cursor');
    }
  });

  /** Every GET route whose answer pages with a cursor, with its parameters filled in. */
  async function paginatedLists(): Promise<string[]> {
    const { createApp } = await import('../../src/http/app.js');
    const { api: router } = createApp(t.deps);
    const paths = [...router.declarations.keys()]
      .filter((k) => k.startsWith('GET '))
      .map((k) => k.slice(4).replace(':webhookId', webhookId).replace(':agentId', agentId))
      .filter((p) => !p.includes(':'));
    const lists: string[] = [];
    for (const path of paths) {
      const res = await api.get(`${path}?limit=1`, { token: owner.token });
      // Lists that never page (the event catalog, the two integrations) ignore cursors.
      if (res.status === 200 && 'nextCursor' in res.body && !['/v1/event-types', '/v1/integrations'].includes(path))
        lists.push(path);
    }
    return lists;
  }
});

describe('cause 5: nesting and size are judged without recursion', () => {
  const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

  it('a body nested thousands deep is a 400 before it is parsed', async () => {
    for (const depth of [2_500, 5_000, 100_000]) {
      const res = await api.post('/v1/agents', {
        token: owner.token,
        ...rawJson(`{"name":"deep","config":${nested(depth)}}`),
      });
      expectFieldError(res, '(body)');
      expectFieldError(
        await api.patch('/v1/contacts/ct_x', {
          token: owner.token,
          ...rawJson(`{"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`),
        }),
        '(body)',
      );
    }
  });

  it('accepts 64 levels and refuses 65; brackets inside strings do not count', async () => {
    const ok = await api.post('/v1/agents', {
      token: owner.token,
      ...rawJson(`{"name":"d64","config":${nested(63)}}`),
    });
    expect(ok.status).toBe(201);
    expectFieldError(
      await api.post('/v1/agents', { token: owner.token, ...rawJson(`{"name":"d65","config":${nested(64)}}`) }),
      '(body)',
    );
    const brackets = await api.post('/v1/agents', {
      token: owner.token,
      body: { name: 'b', config: { s: '[{'.repeat(500) + '\\"' } },
    });
    expect(brackets.status).toBe(201);
  });

  it('measures a config in UTF-8 bytes of JSON without stringifying it', async () => {
    const under = await api.post('/v1/agents', {
      token: owner.token,
      body: { name: 'w', config: { s: 'é'.repeat(30_000) } },
    });
    expect(under.status).toBe(201);
    expectFieldError(
      await api.post('/v1/agents', { token: owner.token, body: { name: 'w', config: { s: 'é'.repeat(33_000) } } }),
      'config',
    );
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    expect((await api.post('/v1/agents', { token: owner.token, body: { name: 'w', config: wide } })).status).toBe(400);
  });
});

describe('path ids are judged by shape on every route, before any query', () => {
  it('a malformed id is 404 and an unstorable one 400 naming the parameter, on every route with a parameter', async () => {
    const { createApp } = await import('../../src/http/app.js');
    const { paramRulesFor } = await import('../../src/http/path-params.js');
    const { api: router } = createApp(t.deps);
    const routes = [...router.declarations].filter(([key]) => key.includes(':'));
    expect(routes.length).toBeGreaterThanOrEqual(30);
    for (const [key, access] of routes) {
      const [method, path] = key.split(' ') as [string, string];
      const names = paramRulesFor(path).map((r) => r.name);
      for (const name of names) {
        const fill = (bad: string) =>
          path.replace(/:(\w+)/g, (_, n: string) =>
            n === name
              ? bad
              : n === 'provider'
                ? 'smtp'
                : n === 'deliveryId'
                  ? '7d4e3a52-3d0c-4c45-9d4a-2b1f0f6f6a11'
                  : n === 'webhookId'
                    ? webhookId
                    : agentId,
          );
        const opts = { token: owner.token, headers: { 'x-inbound-token': 'x' } };
        const malformed = await api[method.toLowerCase() as 'get'](fill('zz_not-an-id'), opts);
        // The per-agent MCP endpoint admits only that agent's key: a session is refused before the id is judged.
        const expected = access.kind === 'agentKey' ? 403 : 404;
        expect(malformed.status, `${key} :${name}`).toBe(expected);
        const unstorable = await api[method.toLowerCase() as 'get'](fill('agt_x%00'), opts);
        if (expected === 404) expectFieldError(unstorable, name);
      }
    }
  });

  it('a route whose parameter has no rule cannot be registered', async () => {
    const { paramRulesFor } = await import('../../src/http/path-params.js');
    expect(() => paramRulesFor('/v1/gadgets/:id')).toThrow(/no rule for the path parameter :id/);
    // One style: a parameter is named after its collection (`:agentId`), never a bare `:id`.
    expect(() => paramRulesFor('/v1/agents/:id')).toThrow(/the path parameter :id is named :agentId in every route/);
    expect(paramRulesFor('/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver').map((r) => r.name)).toEqual([
      'webhookId',
      'deliveryId',
    ]);
  });
});
