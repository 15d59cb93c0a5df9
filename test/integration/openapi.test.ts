import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/events/event-types.js';
import { createApp } from '../../src/http/app.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { TEST_APP_SECRET, createTestContext, type TestContext } from '../helpers/test-context.js';

// The document proves itself: it is valid OpenAPI 3.1, it lists exactly the router's routes with their access,
// its examples match its schemas, a request it calls invalid gets the error (docs/adr/0001-error-shape.md) it
// lists, and the event
// payloads the service really writes match its webhooks.

let t: TestContext;
let api: Client;
let doc: any;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

beforeAll(async () => {
  t = await createTestContext({ OPS_USERNAME: 'ops-user', OPS_PASSWORD: 'ops-password-do-not-leak' });
  api = client(t.url);
  const res = await api.get('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => t?.close());

function ajvFor(document: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  return (pointer: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `openapi#${pointer}` });
    return validate(value) ? null : validate.errors;
  };
}
/** An operation's response for a status, following a reference to components.responses. */
const responseOf = (op: any, status: number | string) => {
  const listed = op.responses[String(status)];
  return listed.$ref ? doc.components.responses[listed.$ref.split('/').pop()] : listed;
};
/** The codes an operation lists for a status (its `x-error-codes`, repeated in the response's description). */
const codesOf = (op: any, status: number) => op['x-error-codes'][String(status)] as string[];
const pointerOf = (...parts: string[]) =>
  '/' + parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe('GET /openapi.json', () => {
  it('is public, valid OpenAPI 3.1, and served at the public URL', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.servers).toEqual([{ url: t.url }]);
  });

  it('lists every route of the router, and nothing else, discovery documents included', async () => {
    const { api: router } = createApp(t.deps);
    // An alias (another spelling of a route's path) answers as its route and is not listed.
    const routed = router.router.stack
      .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`))
      .filter((route) => !router.aliases.has(route))
      .sort();
    expect([...router.aliases]).toEqual([['POST /v1/agents/:agentId/api_keys', 'POST /v1/agents/:agentId/api-keys']]);
    const documented = Object.entries(doc.paths as Record<string, any>)
      .flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
      )
      .sort();
    expect(documented).toEqual(routed);
    expect(documented).toContain('GET /openapi.json');

    // The discovery documents are routes like any other: each one a client finds from the MCP endpoint's 401
    // (RFC 9728, then RFC 8414 and OpenID Connect Discovery at the issuer's path-suffixed URLs) is served and listed.
    const prm = await api.get('/.well-known/oauth-protected-resource/v1/mcp');
    const issuerPath = new URL(prm.body.authorization_servers[0]).pathname;
    const discovery = [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/v1/mcp',
      `/.well-known/oauth-authorization-server${issuerPath}`,
      `/.well-known/openid-configuration${issuerPath}`,
    ];
    for (const path of discovery) {
      expect((await api.get(path)).status, path).toBe(200);
      expect(documented, path).toContain(`GET ${path}`);
    }
  });

  it('gives each operation its credentials and scopes, and the errors its access brings', () => {
    const { api: router } = createApp(t.deps);
    for (const route of router.routes) {
      const op = doc.paths[route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][route.method];
      const where = `${route.method} ${route.path}`;
      expect(op.summary, where).toEqual(expect.any(String));
      expect(op.tags, where).toHaveLength(1);
      expect(op['x-access'], where).toEqual(route.access);
      for (const status of Object.keys(op.responses))
        expect(responseOf(op, status).headers['X-Request-Id'], where).toBeDefined();
      if (route.access.kind === 'public') continue;
      expect(codesOf(op, 401), where).toContain('missing_credential');
      expect(responseOf(op, 401).headers['WWW-Authenticate'], where).toBeDefined();
      expect(op.responses['403'], where).toBeDefined();
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(['session', 'accountKey', 'agentKey']),
    );
    expect(doc.components.securitySchemes.accountKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'ca_acct_…',
    });
    expect(doc.components.securitySchemes.agentKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'ca_agt_…',
    });
    // The account scope / agent scope pair of the per-agent surface.
    expect(doc.paths['/v1/agents/{agentId}'].get.security).toEqual([
      { session: [] },
      { accountKey: ['read:agents'] },
      { agentKey: ['agent:config:read'] },
    ]);
    expect(doc.paths['/v1/agents/{agentId}/chat'].post.security).toContainEqual({ agentKey: ['agent:trigger'] });
    expect(doc.paths['/v1/agents'].get.security).not.toContainEqual(
      expect.objectContaining({ agentKey: expect.anything() }),
    );
    expect(doc.paths['/v1/api_keys'].post.security).toEqual([{ session: ['owner', 'admin'] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    // Money-spending routes: payment errors and the rate limit with its headers.
    const chat = doc.paths['/v1/agents/{agentId}/chat'].post.responses;
    expect(Object.keys(chat)).toEqual(expect.arrayContaining(['202', '402', '429']));
    expect(Object.keys(responseOf(doc.paths['/v1/agents/{agentId}/chat'].post, 429).headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    // Pagination: the query parameters and the list shape.
    const list = doc.paths['/v1/agents'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(['limit', 'cursor']);
    expect(list.parameters[0].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(list.responses['200'].content['application/json'].schema.required).toEqual([
      'data',
      'hasMore',
      'nextCursor',
    ]);
  });

  it('names every operation with a verb and its object, once, and every path parameter after its collection', () => {
    const verbs = new RegExp(
      `^(${[
        'get',
        'list',
        'create',
        'update',
        'delete',
        'add',
        'remove',
        'rotate',
        'deactivate',
        'enable',
        'disable',
        'send',
        'redeliver',
        'trigger',
        'verify',
        'connect',
        'disconnect',
        'receive',
        'check',
        'sign',
        'log',
        'revoke',
        'deliver',
        'poll',
        'commit',
      ].join('|')})[A-Z]`,
    );
    const operations = Object.values(doc.paths as Record<string, any>).flatMap((item) =>
      METHODS.filter((m) => item[m]).map((m) => item[m]),
    );
    const webhooks = Object.values(doc.webhooks as Record<string, any>).map((item) => item.post);
    const ids = [...operations, ...webhooks].map((op) => op.operationId as string);
    for (const id of ids) expect(id).toMatch(verbs);
    expect(new Set(ids).size).toBe(ids.length);
    const named = (path: string, method: string) => doc.paths[path][method].operationId;
    expect(named('/v1/webhooks', 'post')).toBe('createWebhook');
    expect(named('/v1/webhooks/{webhookId}/deliveries', 'get')).toBe('listWebhookDeliveries');
    expect(named('/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 'post')).toBe(
      'redeliverWebhookDelivery',
    );
    expect(named('/v1/api_keys/{keyId}/rotate', 'post')).toBe('rotateApiKey');
    expect(named('/v1/agents/{agentId}/api-keys', 'post')).toBe('createAgentKey');
    // One parameter style: {agentId}, {webhookId}, {deliveryId}, {keyId}…, never a bare {id}.
    const params = Object.keys(doc.paths).flatMap((path) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    expect(params.length).toBeGreaterThan(30);
    for (const name of params) expect(name).toMatch(/^([a-z]+Id|provider)$/);
  });

  it('names the shared error responses for what they mean, and each operation lists its own codes', () => {
    const names = Object.keys(doc.components.responses);
    expect(names).toEqual(
      expect.arrayContaining(['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'RateLimited']),
    );
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z]+$/);
    const chat = doc.paths['/v1/agents/{agentId}/chat'].post;
    const description = expect.stringContaining('`insufficient_scope`');
    expect(chat.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden', description });
    expect(chat.responses['429'].$ref).toBe('#/components/responses/RateLimited');
    expect(chat['x-error-codes']['402']).toEqual(['spend_cap_exceeded', 'insufficient_credits']);
    // The shared response lists every code of its status that some operation answers.
    const forbidden =
      doc.components.responses.Forbidden.content['application/json'].schema.allOf[1].properties.error.properties.code
        .enum;
    expect(forbidden).toEqual(
      expect.arrayContaining(['insufficient_scope', 'agent_forbidden', 'admin_session_required', 'signup_disabled']),
    );
  });

  it('has an example on every request body', () => {
    const bodies = Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]?.requestBody).map(
        (m) => [`${m.toUpperCase()} ${path}`, item[m].requestBody.content['application/json']] as const,
      ),
    );
    expect(bodies.length).toBeGreaterThan(20);
    for (const [where, media] of bodies) expect(media.example, where).toBeDefined();
  });

  it("types a subscription's events as the registry's event names", () => {
    expect(doc.components.schemas.EventName).toMatchObject({ type: 'string', enum: EVENT_NAMES });
    for (const method of ['post', 'patch']) {
      const path = method === 'post' ? '/v1/webhooks' : '/v1/webhooks/{webhookId}';
      const body = doc.paths[path][method].requestBody.content['application/json'].schema;
      expect(body.properties.events.items, `${method} ${path}`).toEqual({ $ref: '#/components/schemas/EventName' });
    }
  });

  it('has examples, and each matches its schema', () => {
    const check = ajvFor(doc);
    let examples = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        const request = op.requestBody?.content['application/json'];
        if (request?.example !== undefined) {
          examples += 1;
          expect(
            check(
              pointerOf('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'),
              request.example,
            ),
            `${method} ${path} request`,
          ).toBeNull();
        }
        for (const [status, listed] of Object.entries(op.responses as Record<string, any>)) {
          if (listed.$ref) continue; // shared error responses: checked once each below
          const media = listed.content?.['application/json'];
          const values = [
            ...(media?.example !== undefined ? [media.example] : []),
            ...Object.values(media?.examples ?? {}).map((e: any) => e.value),
          ];
          for (const value of values) {
            examples += 1;
            expect(
              check(
                pointerOf('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'),
                value,
              ),
              `${method} ${path} ${status}`,
            ).toBeNull();
          }
        }
      }
    }
    for (const [name, response] of Object.entries(doc.components.responses as Record<string, any>)) {
      for (const example of Object.values(response.content['application/json'].examples) as any[]) {
        examples += 1;
        expect(
          check(pointerOf('components', 'responses', name, 'content', 'application/json', 'schema'), example.value),
          name,
        ).toBeNull();
      }
    }
    expect(examples).toBeGreaterThan(50);
  });

  it('reveals no secret, internal id or environment value', () => {
    const text = JSON.stringify(doc);
    const config = t.deps.config;
    for (const secret of [
      TEST_APP_SECRET,
      'ops-password-do-not-leak',
      'ops-user',
      config.database.url,
      t.dbName,
      config.bullmqPrefix,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/ca_(acct|agt|sess)_[0-9A-Za-z]{20,}/);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/]{20,}/);
  });
});

describe('bad input', () => {
  it('a body the document calls invalid gets the contract error the document lists for the route', async () => {
    const owner = await signupAccount(api);
    const check = ajvFor(doc);
    const body = { name: '', surprise: true };
    expect(
      check(pointerOf('paths', '/v1/agents', 'post', 'requestBody', 'content', 'application/json', 'schema'), body),
    ).not.toBeNull();
    const res = await api.post('/v1/agents', { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_error',
      requestId: res.headers.get('x-request-id'),
    });
    expect(codesOf(doc.paths['/v1/agents'].post, 400)).toContain('validation_error');
    expect(codesOf(doc.paths['/v1/api_keys'].post, 400)).toContain('invalid_scope');

    const query = await api.get('/v1/agents?limit=1000', { token: owner.token });
    expect(query.status).toBe(400);
    expect(query.body.error.code).toBe('validation_error');
    expect(check(pointerOf('paths', '/v1/agents', 'get', 'parameters', '0', 'schema'), 1000)).not.toBeNull();

    const scope = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'k', scopes: ['write:billing'] },
    });
    expect(scope.status).toBe(400);
    expect(scope.body.error.code).toBe('invalid_scope');
  });

  it('the response check itself fails on an answer the document does not allow', async () => {
    const { responseChecker } = await import('../helpers/openapi-check.js');
    const checker = await responseChecker(t.url);
    const headers = new Headers({ 'x-request-id': 'req_1' });
    expect(checker.check('GET', '/v1/agents/agt_1', 200, headers, { id: 'agt_1' })).toHaveLength(1);
    expect(checker.check('GET', '/v1/agents/agt_1', 418, headers, {})).toHaveLength(1);
    expect(
      checker.check('GET', '/v1/agents', 403, headers, {
        error: { type: 'permission_error', code: 'not_a_code', message: 'm', requestId: 'r' },
      }),
    ).not.toEqual([]);
    // A code of the shared Forbidden response that this operation cannot answer.
    const unlisted = { error: { type: 'permission_error', code: 'signup_disabled', message: 'm', requestId: 'r' } };
    expect(checker.check('GET', '/v1/agents', 403, headers, unlisted)).toEqual([
      expect.stringContaining('does not list the code signup_disabled'),
    ]);
    expect(
      checker.check('GET', '/v1/agents', 403, headers, {
        error: { type: 'permission_error', code: 'insufficient_scope', message: 'm', requestId: 'r' },
      }),
    ).toEqual([]);
  });
});

describe('webhooks and the event catalog', () => {
  it('describes every event, its envelope and the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_NAMES, 'webhook.test'].sort());
    const op = doc.webhooks['message.received'].post;
    expect(op.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining([
        'X-Switchboard-Signature',
        'X-Switchboard-Signature-Legacy',
        'X-Switchboard-Event',
        'X-Switchboard-Delivery',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]),
    );
    const envelope = op.requestBody.content['application/json'].schema;
    expect(envelope.required).toEqual(['id', 'event', 'timestamp', 'apiVersion', 'inboxId', 'messageId', 'payload']);
    expect(envelope.properties.payload).toEqual({ $ref: '#/components/schemas/Message' });
  });

  it('the payloads the service really writes match the document, and GET /v1/event-types carries each schema', async () => {
    const owner = await signupAccount(api);
    const agent = await api.post('/v1/agents', { token: owner.token, body: { name: 'Docs' } });
    const inbox = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId: agent.body.id, channel: 'email', address: 'docs@example.com' },
    });
    await api.post(`/v1/inbound/${inbox.body.id}`, {
      headers: { 'x-inbound-token': inbox.body.ingestToken },
      body: { from: 'ada@example.com', text: 'hello' },
    });
    await api.patch(`/v1/agents/${agent.body.id}`, { token: owner.token, body: { status: 'paused' } });
    await createAccountKey(api, owner.token).then((k) =>
      api.post(`/v1/api_keys/${k.id}/deactivate`, { token: owner.token }),
    );
    const feed = await api.get('/v1/feed?limit=100', { token: owner.token });
    const events = new Set<string>(feed.body.data.map((e: any) => e.event));
    expect([...events]).toEqual(
      expect.arrayContaining([
        'inbox.created',
        'message.received',
        'contact.created',
        'agent.updated',
        'api_key.deactivated',
      ]),
    );

    const check = ajvFor(doc);
    const types = await api.get('/v1/event-types', { token: owner.token });
    const catalog = new Map<string, any>(types.body.data.map((e: any) => [e.name, e]));
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const item of feed.body.data) {
      const envelope = {
        id: '0b7c7a0e-5d4c-4b8e-9d6f-1a2b3c4d5e6f',
        event: item.event,
        timestamp: item.createdAt,
        apiVersion: '2026-11-01',
        inboxId: item.inboxId,
        messageId: item.messageId,
        payload: item.payload,
      };
      expect(
        check(
          pointerOf('webhooks', item.event, 'post', 'requestBody', 'content', 'application/json', 'schema'),
          envelope,
        ),
        item.event,
      ).toBeNull();
      // The catalog's schema is the same envelope, self-contained.
      expect(ajv.validate(catalog.get(item.event).schema, envelope), item.event).toBe(true);
    }
    for (const name of EVENT_NAMES)
      expect(catalog.get(name).schema.properties.event).toEqual({ type: 'string', const: name });
  });
});
