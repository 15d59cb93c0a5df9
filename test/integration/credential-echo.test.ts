import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, client, signupAccount, type ApiResponse, type Client } from '../helpers/http.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// No credential comes back in an answer or a log line, whatever the route, field, kind or error
// (docs/api-keys.md#credentials-in-urls). Every route of the OpenAPI document whose body has a URL-bearing field
// gets a credential in that field in every form the service hides (a user-part password or token, a credential
// query or fragment parameter), in bodies it accepts and bodies it refuses; every answer (body and headers), the
// reads that follow and every log line are searched for each secret.

let t: TestContext;
let api: Client;
const logs: string[] = [];
let owner: { token: string };
let portal: string;

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  t = await createTestContext({ LOG_LEVEL: 'debug' }, { logTo: sink });
  api = client(t.url);
  owner = await signupAccount(api);
  portal = (await api.post('/v1/portal-links', { token: owner.token, body: { tenant: 'cust-1' } })).body.token;
});
afterAll(async () => {
  await t?.close();
});

type Schema = Record<string, unknown> & { $ref?: string; properties?: Record<string, Schema>; items?: Schema };
type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

/** The body fields that hold a URL (named so, or of format uri), at any depth, by dotted path. */
function urlFields(doc: Doc, schema: Schema | undefined, prefix = ''): string[] {
  const s = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
  if (!s) return [];
  const nested = (['anyOf', 'oneOf', 'allOf'] as const).flatMap((k) =>
    ((s[k] as Schema[] | undefined) ?? []).flatMap((x) => urlFields(doc, x, prefix)),
  );
  const own = Object.entries(s.properties ?? {}).flatMap(([name, v]) => [
    ...(/url|uri/i.test(name) || v.format === 'uri' ? [`${prefix}${name}`] : []),
    ...urlFields(doc, v, `${prefix}${name}.`),
  ]);
  return [...new Set([...nested, ...own])];
}

/** The forms a credential takes in a URL, each carrying its own secret. */
const FORMS: Array<(secret: string) => string> = [
  (s) => `https://user:${s}@93.184.216.34/hook`,
  (s) => `https://${s}@93.184.216.34/hook`,
  (s) => `https://93.184.216.34/hook?token=${s}`,
  (s) => `https://93.184.216.34/hook?a=1&access_token=${s}&b=2`,
  (s) => `https://93.184.216.34/hook?api_key=${s}`,
  (s) => `https://93.184.216.34/hook#access_token=${s}`,
  (s) => `https://user:${s}@10.0.0.1/hook`,
  (s) => `http://user:${s}@`,
  (s) => `ftp://user:${s}@93.184.216.34/`,
  (s) => `amqp://user:${s}@93.184.216.34:5672/`,
  (s) => `amqps://user:${s}@93.184.216.34/vhost?heartbeat=10`,
  (s) => `amqp://user:${s}@`,
  (s) => `nats://${s}@93.184.216.34:4222`,
  (s) => `nats://user:${s}@93.184.216.34:4222`,
  (s) => `tls://user:${s}@93.184.216.34:4222?token=${s}`,
];

/** What else each body needs, per kind a URL may be for: each route's bodies, valid and invalid alike. */
const KINDS: Array<Record<string, unknown>> = [
  {},
  { kind: 'http' },
  { kind: 'rabbitmq', exchange: 'x', routingKey: 'k' },
  { kind: 'nats', subject: 's' },
  { kind: 'poll' },
  { kind: 'http', events: 'not-a-list' },
];

function setPath(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const copy = { ...body };
  copy[head!] = rest.length ? setPath((body[head!] as Record<string, unknown>) ?? {}, rest.join('.'), value) : value;
  return copy;
}

/** Per route: the credential it is sent with, its path parameters filled, and the rest of a plausible body. */
interface Target {
  token: string;
  path: string;
  base: Record<string, unknown>;
  kinds: boolean;
}

async function targetOf(method: string, path: string): Promise<Target | undefined> {
  const events = ['message.received'];
  const hook = async (kindBody: Record<string, unknown>, token: string, list: string) =>
    (await api.post(list, { token, body: { url: 'https://93.184.216.34/first', events, ...kindBody } })).body.id;
  switch (`${method} ${path}`) {
    case 'POST /v1/webhooks':
      return { token: owner.token, path, base: { events }, kinds: true };
    case 'PATCH /v1/webhooks/{webhookId}':
      return {
        token: owner.token,
        path: `/v1/webhooks/${await hook({}, owner.token, '/v1/webhooks')}`,
        base: {},
        kinds: false,
      };
    case 'POST /v1/portal/webhooks':
      return { token: portal, path, base: { events }, kinds: true };
    case 'PATCH /v1/portal/webhooks/{webhookId}':
      return {
        token: portal,
        path: `/v1/portal/webhooks/${await hook({}, portal, '/v1/portal/webhooks')}`,
        base: {},
        kinds: false,
      };
    case 'POST /v1/integrations/{provider}':
      return { token: owner.token, path: '/v1/integrations/sms-http', base: { from: '+14155550100' }, kinds: false };
  }
  return undefined;
}

describe('credentials in URLs', () => {
  it('never come back in an answer or a log line, for every URL-bearing field of every route', async () => {
    const doc = (await api.get('/openapi.json')).body as Doc;
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => {
        const fields = urlFields(doc, op.requestBody?.content?.['application/json']?.schema);
        return fields.length ? [{ method: method.toUpperCase(), path, fields }] : [];
      }),
    );
    // The five routes that take a URL today; a new one must be added to targetOf.
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'PATCH /v1/portal/webhooks/{webhookId}',
      'PATCH /v1/webhooks/{webhookId}',
      'POST /v1/integrations/{provider}',
      'POST /v1/portal/webhooks',
      'POST /v1/webhooks',
    ]);

    const answers: Array<{ sent: string; secret: string; res: ApiResponse }> = [];
    const secrets: string[] = [];
    let n = 0;
    for (const route of routes) {
      const target = (await targetOf(route.method, route.path))!;
      for (const field of route.fields)
        for (const form of FORMS)
          for (const kind of target.kinds ? KINDS : [{}]) {
            const secret = `s3cr3t${++n}x`;
            secrets.push(secret);
            const body = setPath({ ...target.base, ...kind }, field, form(secret));
            const res = await call(t.url, route.method, target.path, { token: target.token, body });
            answers.push({ sent: `${route.method} ${target.path} ${JSON.stringify(body)}`, secret, res });
          }
    }
    // Some were taken (so the answers and the reads below show stored URLs), and some refused.
    expect(answers.some((a) => a.res.status < 300)).toBe(true);
    expect(answers.some((a) => a.res.status === 400)).toBe(true);
    expect(answers.filter((a) => a.res.status >= 500).map((a) => a.sent)).toEqual([]);

    const reads = await Promise.all(
      [
        ['/v1/webhooks', owner.token],
        ['/v1/portal/webhooks', portal],
        ['/v1/integrations', owner.token],
      ].map(([path, token]) => api.get(path!, { token })),
    );
    const leaks = [
      ...answers.flatMap(({ sent, secret, res }) => {
        const text = JSON.stringify(res.body) + JSON.stringify([...res.headers.entries()]);
        return text.includes(secret) ? [{ sent, status: res.status, answered: res.body }] : [];
      }),
      ...reads.flatMap((res) => secrets.filter((s) => JSON.stringify(res.body).includes(s)).map((s) => ({ read: s }))),
    ];
    expect(leaks).toEqual([]);
    const logged = logs.join('');
    expect(logged.length).toBeGreaterThan(0);
    expect(secrets.filter((s) => logged.includes(s))).toEqual([]);
  });
});
