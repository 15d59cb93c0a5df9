import { Writable } from 'node:stream';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { publicAccess } from '../../src/auth/access.js';
import { createLogger } from '../../src/platform/logger.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { RawConnection, type RawRequest, type RawResponse } from '../helpers/raw-http.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Connections under hostile input: a refused request must not take its connection down with it, and
// bytes that are not HTTP are answered in the error shape (docs/adr/0035-connection-errors.md). Also the last
// line of defence: a database
// error that only input can cause is a 400, never a 500.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext({ OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-for-hostile-tests' });
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t?.close());

const MiB = 1024 * 1024;
const json = (body: string | Buffer, extra: Array<[string, string]> = []): Pick<RawRequest, 'body' | 'headers'> => ({
  body,
  headers: [['Content-Type', 'application/json'], ...extra],
});
const health: RawRequest = { method: 'GET', target: '/healthz' };

function expectContractError(res: RawResponse, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.json.error).toMatchObject({ code, requestId: res.headers['x-request-id'] });
}

/** Sends `first` and then a health check on the same connection; both must be answered. */
async function twoOnOneConnection(first: RawRequest): Promise<[RawResponse, RawResponse, RawConnection]> {
  const conn = await RawConnection.open(t.url);
  void conn.send(first);
  const a = await conn.read();
  await conn.send(health);
  const b = await conn.read();
  return [a, b, conn];
}

describe('cause 6: a refused body leaves a connection that answers the next request', () => {
  it('a chunked body over the limit: 413, then the next request on the same connection', async () => {
    const [a, b, conn] = await twoOnOneConnection({
      method: 'POST',
      target: '/v1/auth/login',
      ...json(Buffer.alloc(2 * MiB, 0x20)),
      chunkSize: 64 * 1024,
    });
    expectContractError(a, 413, 'payload_too_large');
    expect(a.headers.connection).not.toBe('close');
    expect(b.status).toBe(200);
    conn.close();
  });

  it('a Content-Length body over the limit, a 415 and malformed or too deep JSON: each refused, the connection kept', async () => {
    const cases: Array<[RawRequest, number, string]> = [
      [{ method: 'POST', target: '/v1/auth/login', ...json(Buffer.alloc(3 * MiB, 0x20)) }, 413, 'payload_too_large'],
      [
        {
          method: 'POST',
          target: '/v1/auth/login',
          body: 'x'.repeat(512 * 1024),
          headers: [['Content-Type', 'text/plain']],
        },
        415,
        'unsupported_media_type',
      ],
      [
        {
          method: 'POST',
          target: '/v1/auth/login',
          body: 'x'.repeat(64 * 1024),
          headers: [['Content-Type', 'text/plain']],
          chunkSize: 4096,
        },
        415,
        'unsupported_media_type',
      ],
      [{ method: 'POST', target: '/v1/auth/login', ...json('{"email": ') }, 400, 'invalid_json'],
      [
        { method: 'POST', target: '/v1/auth/login', ...json('['.repeat(100_000)), chunkSize: 8192 },
        400,
        'validation_error',
      ],
      [{ method: 'GET', target: '/healthz', body: Buffer.alloc(2 * MiB, 0x20) }, 413, 'payload_too_large'],
    ];
    for (const [request, status, code] of cases) {
      const [a, b, conn] = await twoOnOneConnection(request);
      expectContractError(a, status, code);
      expect(b.status, `${status} ${code}`).toBe(200);
      conn.close();
    }
  });

  it('a body far past what is worth draining: 413 with Connection: close, and the client is answered on a new connection', async () => {
    const conn = await RawConnection.open(t.url);
    await conn.send({
      method: 'POST',
      target: '/v1/auth/login',
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(100 * MiB)],
      ],
    });
    await conn.write(Buffer.alloc(64 * 1024, 0x20));
    const res = await conn.read();
    expectContractError(res, 413, 'payload_too_large');
    expect(res.headers.connection).toBe('close');
    expect(await conn.closedWithin(5_000)).toBe(true);
    const next = await RawConnection.open(t.url);
    await next.send(health);
    expect((await next.read()).status).toBe(200);
    next.close();
  });
});

describe('a refused body outside the JSON API leaves a connection that answers the next request', () => {
  // About 1.1 MB of form fields, sent chunked so that no Content-Length warns the reader in advance.
  const bigForm = (): Pick<RawRequest, 'body' | 'headers' | 'chunkSize'> => ({
    body: `csrf=x&email=${'a'.repeat(1_100_000)}`,
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    chunkSize: 16 * 1024,
  });

  it('a chunked form over the limit on the sign-in form, a signed-in dashboard form and a portal form', async () => {
    const session: [string, string] = ['Cookie', `sb_dash=${owner.token}`];
    const forms: RawRequest[] = [
      { method: 'POST', target: '/dashboard/sign-in', ...bigForm() },
      { method: 'POST', target: '/dashboard/portal-links', ...bigForm(), headers: [...bigForm().headers!, session] },
      { method: 'POST', target: `/portal/ca_portal_${'a'.repeat(40)}/webhooks`, ...bigForm() },
    ];
    for (const form of forms) {
      const [a, b, conn] = await twoOnOneConnection(form);
      expect(a.status, form.target).toBe(413);
      expect(b.status, form.target).toBe(200);
      conn.close();
    }
  });

  it("a chunked JSON body over the limit on bull-board's API: a 413 in the contract shape, never a 500", async () => {
    const basic = Buffer.from('operator:ops-password-for-hostile-tests').toString('base64');
    const [a, b, conn] = await twoOnOneConnection({
      method: 'PUT',
      target: '/admin/queues/api/queues/maintenance/pause',
      ...json(JSON.stringify({ padding: 'a'.repeat(1_100_000) }), [['Authorization', `Basic ${basic}`]]),
      chunkSize: 64 * 1024,
    });
    expectContractError(a, 413, 'payload_too_large');
    expect(b.status).toBe(200);
    conn.close();
  });

  it("a chunked registration body over the OAuth server's limit: refused, then the next request", async () => {
    const metadata = JSON.stringify({ redirect_uris: ['https://example.com/cb'], padding: 'a'.repeat(1_500_000) });
    const [a, b, conn] = await twoOnOneConnection({
      method: 'POST',
      target: '/oauth/reg',
      ...json(metadata),
      chunkSize: 64 * 1024,
    });
    expect(a.status).toBe(400);
    expect(a.json.error).toBe('invalid_request');
    expect(b.status).toBe(200);
    conn.close();
  });
});

describe('a registration body far past what is worth draining', () => {
  it('is refused by the OAuth server, and the connection is ended rather than left waiting', async () => {
    const conn = await RawConnection.open(t.url);
    await conn.send({
      method: 'POST',
      target: '/oauth/reg',
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(100 * MiB)],
      ],
    });
    await conn.write(Buffer.alloc(64 * 1024, 0x20));
    expect((await conn.read()).status).toBe(400);
    expect(await conn.closedWithin(10_000)).toBe(true);
  });
});

describe('bytes that are not HTTP', () => {
  it('are answered in the contract shape with a request id, even after an earlier response on the connection', async () => {
    const conn = await RawConnection.open(t.url);
    await conn.send(health);
    expect((await conn.read()).status).toBe(200);
    await conn.write(Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 'latin1'));
    expectContractError(await conn.read(), 400, 'malformed_request');
    expect(await conn.closedWithin(5_000)).toBe(true);
  });

  it('headers over the limit are a 431 in the contract shape', async () => {
    const conn = await RawConnection.open(t.url);
    await conn.send({ method: 'GET', target: '/healthz', headers: [['X-Big', 'a'.repeat(64 * 1024)]] });
    expectContractError(await conn.read(), 431, 'headers_too_large');
    conn.close();
  });
});

describe('the last line of defence: a database error only input can cause', () => {
  let server: Server;
  let url: string;
  const lines: any[] = [];

  beforeAll(async () => {
    const logs = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const { app, api: router } = createApp({ ...t.deps, logger: createLogger('warn', 'test', logs) });
    const testDoc = { summary: 'test only', tag: 'Meta' as const, response: null };
    // Routes whose validation is missing on purpose: the database is the first to see the bad value.
    router.get('/v1/test/bad-uuid', publicAccess, { ...testDoc, operationId: 'testBadUuid' }, async (ctx) => {
      ctx.body = await t.deps.db.raw('select ?::uuid as id', [String(ctx.query.id)]);
    });
    router.get('/v1/test/nul', publicAccess, { ...testDoc, operationId: 'testNul' }, async (ctx) => {
      ctx.body = await t.deps.db.raw('select ?::text as s', ['a\u0000b']);
    });
    router.post('/v1/test/duplicate', publicAccess, { ...testDoc, operationId: 'testDuplicate' }, async (ctx) => {
      ctx.body = await t.deps
        .db('users')
        .insert({ id: 'usr_dup', account_id: owner.accountId, email: owner.email, password_hash: 'x', role: 'member' });
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 400 validation_error (409 for a unique violation), without SQL, and logs a warning naming the route', async () => {
    const local = client(url);
    const uuid = await local.get('/v1/test/bad-uuid?id=agt_123');
    expect(uuid.status).toBe(400);
    expect(uuid.body.error.code).toBe('validation_error');
    const nul = await local.get('/v1/test/nul');
    expect(nul.status).toBe(400);
    const dup = await local.post('/v1/test/duplicate');
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('conflict');
    for (const res of [uuid, nul, dup])
      expect(JSON.stringify(res.body)).not.toMatch(/select|insert|uuid|users|22P02|23505/i);
    const warnings = lines.filter((l) => l.msg === 'the database refused input that validation accepted');
    expect(warnings.map((w) => [w.route, w.pgCode])).toEqual([
      ['GET /v1/test/bad-uuid', '22P02'],
      ['GET /v1/test/nul', '22021'],
      ['POST /v1/test/duplicate', '23505'],
    ]);
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
  });
});
