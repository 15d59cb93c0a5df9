import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client } from '../helpers/http.js';

// Dependencies that do not answer: nothing listens on port 1.
describe('when Postgres or Redis is unreachable', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
  });
  afterAll(() => t.close());

  it('reports not ready, naming what is down, while /healthz stays up', async () => {
    const api = client(t.url);
    expect((await api.get('/healthz')).status).toBe(200);
    const ready = await api.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ postgres: 'down', redis: 'down' });
  });

  it('answers 503 unavailable, in the error shape, without leaking internals', async () => {
    const api = client(t.url);
    const res = await api.post('/v1/auth/login', { body: { email: 'a@example.com', password: 'whatever pw' } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 'unavailable' });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|knex|stack/i);
  });
});
