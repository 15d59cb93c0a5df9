import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, type Client } from '../helpers/http.js';
import { createApp } from '../../src/http/app.js';

let t: TestContext;
let api: Client;

beforeAll(async () => {
  t = await createTestContext({ OPS_USERNAME: 'ops', OPS_PASSWORD: 'ops-password-123' });
  api = client(t.url);
});
afterAll(() => t.close());

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.requestId).toMatch(/\S+/);
};

describe('HTTP core', () => {
  it('answers an unknown route with a JSON 404 carrying the request id header', async () => {
    const res = await api.get('/v1/nothing-here');
    expectError(res, 404, 'not_found');
    expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const sane = await api.get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(sane.headers.get('x-request-id')).toBe('abc-123');
    const insane = await api.get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(insane.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const raw = JSON.stringify({ accountName: 'x'.repeat(1024 * 1024), email: 'a@b.co', password: '0123456789' });
    const res = await api.post('/v1/auth/signup', { raw, headers: { 'content-type': 'application/json' } });
    expectError(res, 413, 'payload_too_large');
  });

  it('refuses a non-JSON body with 415', async () => {
    const res = await api.post('/v1/auth/login', {
      raw: 'email=a@b.co',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await api.post('/v1/auth/login', {
      raw: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'invalid_json');
  });

  it('answers 405 for a known path with the wrong method', async () => {
    const res = await api.delete('/v1/auth/login');
    expectError(res, 405, 'method_not_allowed');
  });

  it('reports health and readiness', async () => {
    expect((await api.get('/healthz')).status).toBe(200);
    const ready = await api.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'ok' });
  });

  it('declares access for every route of the router, and a route without one would be caught', () => {
    const { api: router } = createApp(t.deps);
    const layers = router.router.stack.filter((l) => l.methods.length > 0);
    expect(layers.length).toBeGreaterThan(5);
    const undeclared = layers.flatMap((l) =>
      l.methods
        .filter((m) => m !== 'HEAD')
        .map((m) => `${m} ${String(l.path)}`)
        .filter((key) => !router.declarations.has(key)),
    );
    expect(undeclared).toEqual([]);
    // A route added behind the declaration mechanism's back is found by the same walk.
    router.router.get('/v1/sneaky', (ctx) => {
      ctx.body = {};
    });
    const sneaky = router.router.stack.filter(
      (l) => String(l.path) === '/v1/sneaky' && !router.declarations.has(`GET ${String(l.path)}`),
    );
    expect(sneaky).toHaveLength(1);
  });
});
