import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, paginate, SwitchboardError, type SwitchboardClient } from '@switchboard/client';
import { closedPort } from '../../../test/helpers/receiver.js';
import { setupAccount } from '../../../test/helpers/setup-account.js';
import { createTestContext, type TestContext } from '../../../test/helpers/test-context.js';
import { waitUntil } from '../../../test/helpers/wait.js';
import { startFront, type Front } from './front.js';

// The client against the real API, through a real HTTP server in front of it (./front.ts) that records what the
// client sent and answers 429 and 503 when told to, as an overloaded service does.

let t: TestContext;
let front: Front;
let sb: SwitchboardClient;
let token: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What the client throws for `call`, which must throw. */
async function thrown(call: Promise<unknown>): Promise<SwitchboardError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SwitchboardError);
  return err as SwitchboardError;
}

beforeAll(async () => {
  t = await createTestContext();
  front = await startFront(t.url);
  token = (await setupAccount(t)).token;
  sb = createClient({ baseUrl: `${front.url}/`, token });
});

afterAll(async () => {
  await front?.close();
  await t?.close();
});

describe('a refused call', () => {
  it("throws a SwitchboardError with the body's status, code, type, requestId and details", async () => {
    const absent = await thrown(
      sb.getWebhook({ path: { webhookId: 'wh_nothere' }, headers: { 'x-request-id': 'req-client-404' } }),
    );
    expect(absent).toMatchObject({ status: 404, code: 'not_found', type: 'not_found_error' });
    expect(absent.requestId).toBe('req-client-404');

    const invalid = await thrown(sb.createWebhook({ body: { url: 'https://example.com/h', events: [] } }));
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error', type: 'invalid_request_error' });
    expect(invalid.details?.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'events' })]));

    const anonymous = await thrown(createClient({ baseUrl: t.url }).getAccount());
    expect(anonymous).toMatchObject({ status: 401, code: 'missing_credential', type: 'authentication_error' });
  });

  it('that gets no answer throws one too: status 0, connection_failed, the fetch error as its cause', async () => {
    const nowhere = createClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token });
    const err = await thrown(nowhere.listAgents());
    expect(err).toMatchObject({ status: 0, code: 'connection_failed', type: 'connection_error', requestId: null });
    expect(err.message).toMatch(/^could not reach the API: /);
    expect(err.cause).toBeInstanceOf(TypeError);
  });
});

describe('paginate', () => {
  it('follows nextCursor through every page, and asks for the next only when the loop gets there', async () => {
    const made: string[] = [];
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) made.push((await sb.createAgent({ body: { name } })).id);
    const before = front.seen.length;
    const listed: string[] = [];
    for await (const agent of paginate(sb.listAgents, { query: { limit: 2 } })) listed.push(agent.id);
    expect(listed.sort()).toEqual([...made].sort());
    const pages = front.seen.slice(before);
    expect(pages.map((s) => s.path.replace(/cursor=[^&]+/, 'cursor=…'))).toEqual([
      '/v1/agents?limit=2',
      '/v1/agents?limit=2&cursor=…',
      '/v1/agents?limit=2&cursor=…',
    ]);

    const first = front.seen.length;
    for await (const agent of paginate(sb.listAgents, { query: { limit: 2 } })) if (agent) break;
    expect(front.seen.length - first).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  it('is sent by every creating call: a new UUID per call, or the one given, whose repeat replays the answer', async () => {
    const before = front.seen.length;
    const a = await sb.createAgent({ body: { name: 'keyed' } });
    const b = await sb.createAgent({ body: { name: 'keyed' } });
    expect(a.id).not.toBe(b.id);
    const [first, second] = front.seen.slice(before);
    expect(first!.idempotencyKey).toMatch(UUID);
    expect(second!.idempotencyKey).toMatch(UUID);
    expect(first!.idempotencyKey).not.toBe(second!.idempotencyKey);

    const once = await sb.createAgent({ body: { name: 'given' }, idempotencyKey: 'client-test-given-1' });
    const again = await sb.createAgent({ body: { name: 'given' }, idempotencyKey: 'client-test-given-1' });
    expect(again.id).toBe(once.id);
    expect(front.seen.at(-1)!.idempotencyKey).toBe('client-test-given-1');
  });

  it('is not sent by a call the API takes none for', async () => {
    const before = front.seen.length;
    await sb.listAgents();
    expect(front.seen[before]!.idempotencyKey).toBeNull();
  });
});

describe('retries', () => {
  it('send a creating call again after the Retry-After of a 503, with the same key, doing the work once', async () => {
    front.refuseNext(1, 503, { 'retry-after': '1' });
    const before = front.seen.length;
    const agent = await sb.createAgent({ body: { name: 'after a 503' } });
    const tries = front.seen.slice(before);
    expect(tries.map((s) => s.answered)).toEqual([503, 201]);
    expect(tries[1]!.idempotencyKey).toBe(tries[0]!.idempotencyKey);
    // Not before the second it was told to wait (a lower bound: a slower machine only waits longer).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);
    const all: string[] = [];
    for await (const a of paginate(sb.listAgents, { query: { limit: 100 } })) all.push(a.name);
    expect(all.filter((n) => n === 'after a 503')).toHaveLength(1);
    expect(agent.name).toBe('after a 503');
  });

  it('send a GET again after a 429, at most maxRetries times, then throw the last answer', async () => {
    front.refuseNext(5, 429, { 'retry-after': '0' });
    const before = front.seen.length;
    const err = await thrown(sb.listAgents());
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 0 });
    expect(front.seen.length - before).toBe(3);
    front.refuseNext(0, 429);

    const patient = createClient({ baseUrl: front.url, token, retry: { maxRetries: 0 } });
    front.refuseNext(1, 503, { 'retry-after': '0' });
    await thrown(patient.listAgents());
    expect(await patient.listAgents()).toMatchObject({ data: expect.any(Array) });
  });

  it('never resend a call that carries no Idempotency-Key, nor wait out a Retry-After past maxDelayMs', async () => {
    const hook = await sb.createWebhook({ body: { url: 'https://example.com/hooks', events: ['contact.created'] } });
    front.refuseNext(1, 503, { 'retry-after': '0' });
    let before = front.seen.length;
    const unkeyed = await thrown(sb.rotateWebhookSecret({ path: { webhookId: hook.id } }));
    expect(unkeyed).toMatchObject({ status: 503, code: 'unavailable' });
    expect(front.seen.length - before).toBe(1);

    front.refuseNext(1, 503, { 'retry-after': '120' });
    before = front.seen.length;
    const long = await thrown(sb.listAgents());
    expect(long).toMatchObject({ status: 503, retryAfterSeconds: 120 });
    expect(front.seen.length - before).toBe(1);
  });

  it('stop waiting when the call is aborted', async () => {
    front.refuseNext(1, 503, { 'retry-after': '20' });
    const controller = new AbortController();
    const before = front.seen.length;
    const call = sb.listAgents({ signal: controller.signal });
    await waitUntil(() => front.seen.length > before && front.seen.at(-1)!.answered === 503, 10_000, 'the 503');
    controller.abort(new Error('stopped'));
    await expect(call).rejects.toThrow('stopped');
    front.refuseNext(0, 503);
  });
});
