import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePayloadOfEnvelope } from '../../packages/cli/src/sample-payload.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';
import { client } from '../helpers/http.js';
import { descendantsOf, isRunning } from '../helpers/process-tree.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitFor } from '../helpers/wait.js';
import { verifySwitchboardSignature } from '../helpers/webhook-verify.js';
import { killHard, spawnWorkerProcess, type WorkerChild } from '../helpers/worker-child.js';
import { spawnChild } from '../helpers/children.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

// `switchboard listen` end to end (docs/cli.md): the service with its workers, the CLI as child processes, a local
// receiver. WEBHOOK_ALLOW_PRIVATE_TARGETS stays off: the receiver on 127.0.0.1 is reached through the stream only.

let t: TestContext;
let worker: WorkerChild | undefined;
let receiver: Receiver;
let owner: SetupAccount & { accountKey: { key: string } };
let env: Record<string, string>;
const configHome = mkdtempSync(join(tmpdir(), 'sb-cli-'));
const live: CliProcess[] = [];

beforeAll(async () => {
  // Ten worker slots, so two deliveries in flight per stream (a fifth of them): a stalled stream could hold every
  // slot without the in-flight limit, which the isolation test below tells apart. The workers run in a process of
  // their own, as in production: the web process (this one) and the worker meet only through Redis.
  const settings = {
    QUEUE_CONCURRENCY: 'webhook-delivery=10',
    WEBHOOK_TIMEOUT_MS: '4000',
    WEBHOOK_RETRY_DELAYS_MS: '300',
  };
  t = await createTestContext(settings, { tune: (config) => void (config.webhooks.streamsPerAccount = 2) });
  worker = spawnWorkerProcess(t, settings);
  await worker.ready;
  receiver = await startReceiver(() => ({ status: 201, body: 'taken' }));
  owner = await setupAccount(t, {
    accountKey: { name: 'cli', scopes: ['read:webhooks', 'write:webhooks', 'read:account', 'read:agents'] },
  });
  env = { XDG_CONFIG_HOME: configHome };
  catalog = (await client(t.url).get('/v1/event-types', { token: owner.token })).body.data;
});
afterAll(async () => {
  for (const cli of live) cli.proc.kill('SIGKILL');
  if (worker) await killHard(worker.proc);
  await receiver?.close();
  await t?.close();
  rmSync(configHome, { recursive: true, force: true });
});

let catalog: Array<{ name: string; schema: any }> = [];
const samplePayloadOf = (event: string) => samplePayloadOfEnvelope(catalog.find((c) => c.name === event)!.schema);
const attemptsOf = (webhookId: string) =>
  t.deps.db('webhook_attempts').where({ webhook_id: webhookId }).orderBy('created_at');
const listen = (...args: string[]) => {
  const cli = startCli(['--json', 'listen', ...args], env);
  live.push(cli);
  return cli;
};

describe('switchboard login, listen and trigger', () => {
  it('stores only a credential the API accepts, then forwards signed deliveries and records the local answers', async () => {
    const bad = await runCli(['login', '--url', t.url, '--key', 'ca_acct_not-a-real-key'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^switchboard: invalid_credential/);
    expect(() => statSync(join(configHome, 'switchboard', 'credentials.json'))).toThrow();

    const [usage, good] = await Promise.all([
      runCli(['listen', '--forward-to', 'ftp://localhost/hooks'], env),
      runCli(['login', '--url', t.url, '--key', '-'], env, owner.accountKey.key),
    ]);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/--forward-to must be an http\(s\) URL/) });
    expect(good.code).toBe(0);
    expect(statSync(join(configHome, 'switchboard', 'credentials.json')).mode & 0o777).toBe(0o600);

    // Two sessions of one account: each its own stream, each gets every matching delivery. B's receiver is down.
    const a = listen('--events', 'contact.created', '--forward-to', receiver.url + '/hooks');
    const b = listen('--events', 'contact.created', '--print-json', '--forward-to', 'http://127.0.0.1:9/down');
    const [openedA, openedB] = await Promise.all([
      a.waitForJson((l) => l.type === 'opened'),
      b.waitForJson((l) => l.type === 'opened'),
    ]);
    expect(openedA.secret).toMatch(/^whsec_/);
    expect(openedA.webhookId).not.toBe(openedB.webhookId);
    // A stream's URL and secret belong to its session: the API does not change them.
    const [patched, rotated] = await Promise.all([
      client(t.url).patch(`/v1/webhooks/${openedA.webhookId}`, { token: owner.token, body: { description: 'x' } }),
      client(t.url).post(`/v1/webhooks/${openedA.webhookId}/rotate-secret`, { token: owner.token }),
    ]);
    expect([patched.status, rotated.status]).toEqual([409, 409]);

    // Refusals of the stream route itself, in the contract's shape (the fuzz leaves this route out).
    const stream = (query: string, token?: string) =>
      fetch(`${t.url}/v1/webhook-streams${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const refusals = await Promise.all([
      stream('?events=contact.created,nope', owner.accountKey.key),
      stream('?bogus=1', owner.accountKey.key),
      stream(''),
    ]);
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 401]);
    expect(((await refusals[0]!.json()) as { error: { code: string } }).error.code).toBe('validation_error');

    // A third stream is one more than the two an account may open here.
    const third = await runCli(['listen', '--forward-to', receiver.url], env);
    expect(third).toMatchObject({ code: 1, stderr: expect.stringMatching(/^switchboard: rate_limited/) });

    const triggered = await runCli(['--json', 'trigger', 'contact.created'], env);
    expect(triggered.code).toBe(0);
    const sent = JSON.parse(triggered.stdout);
    expect(sent.deliveryIds).toHaveLength(2);

    const [arrived] = await receiver.waitFor(1);
    expect(arrived!.path).toBe('/hooks');
    expect(verifySwitchboardSignature(arrived!, openedA.secret)).toBe(true);
    expect(arrived!.body).toMatchObject({ event: 'contact.created', payload: sent.payload });
    const forwarded = await a.waitForJson((l) => l.type === 'delivery');
    expect(forwarded).toMatchObject({
      status: 201,
      event: 'contact.created',
      deliveryId: arrived!.body.id,
      signature: 'verified',
    });

    const [recordedA] = await waitFor(
      () => attemptsOf(openedA.webhookId),
      (r) => r.length === 1,
      { what: "A's attempt" },
    );
    expect(recordedA).toMatchObject({ status: 'succeeded', response_status: 201, response_body: 'taken' });
    expect(recordedA.duration_ms).toBe(forwarded.durationMs);
    // The request headers handed to the stream are recorded as the local receiver got them; a stream reports no
    // response headers.
    expect(recordedA.request_headers['webhook-signature']).toBe(arrived!.headers['webhook-signature']);
    expect(recordedA.request_headers['x-switchboard-delivery']).toBe(arrived!.body.id);
    expect(recordedA.response_headers).toBeNull();
    // B's local receiver is down: shown, recorded as a failed attempt, retried, and B keeps running.
    const failedB = await waitFor(
      () => attemptsOf(openedB.webhookId),
      (r) => r.length >= 2,
      { what: "B's retry" },
    );
    expect(failedB.map((r) => [r.status, r.error])).toEqual([
      ['failed', 'connection_refused'],
      ['failed', 'connection_refused'],
    ]);
    expect(b.json().filter((l) => l.type === 'delivery')[0]).toMatchObject({
      status: null,
      error: 'connection_refused',
      envelope: { event: 'contact.created', payload: sent.payload },
    });
    expect(b.proc.exitCode).toBeNull();

    // The everyday look at a delivery, through the CLI, while its stream is open.
    const [shown, shownAsText, missing] = await Promise.all([
      runCli(['--json', 'deliveries', 'show', arrived!.body.id], env),
      runCli(['deliveries', 'show', arrived!.body.id], env),
      runCli(['deliveries', 'show', '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'], env),
    ]);
    const redelivered = await runCli(['--json', 'redeliver', arrived!.body.id, '--webhook', openedA.webhookId], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      webhookId: openedA.webhookId,
      delivery: { id: arrived!.body.id, webhookId: openedA.webhookId },
      envelope: arrived!.body,
      attempts: [{ responseStatus: 201, responseHeaders: null, requestHeaders: expect.any(Object) }],
    });
    expect(shownAsText.stdout).toContain(JSON.stringify(arrived!.body, null, 2));
    expect(shownAsText.stdout).toContain(`  request headers:\n`);
    expect(shownAsText.stdout).toContain(`    webhook-id: ${arrived!.body.id}\n`);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^switchboard: not_found/) });
    expect(JSON.parse(redelivered.stdout)).toMatchObject({ status: 'pending' });
    const again = await receiver.waitFor(2);
    expect(again[1]!.body.id).toBe(arrived!.body.id);

    // Killed with a delivery in its hands (the receiver stalls): the attempt is recorded as failed at once, not at
    // the timeout, and the delivery ends failed with its stream (the documented rule). Nothing is left pending.
    receiver.respond = () => ({ stallMs: 3000 });
    const stalled = JSON.parse((await runCli(['--json', 'trigger', 'contact.created'], env)).stdout);
    await receiver.waitFor(3);
    a.proc.kill('SIGKILL');
    const deliveryA = stalled.deliveryIds.find((id: string) => id === receiver.received[2]!.body.id);
    const row = await waitFor(
      () => t.deps.db('webhook_deliveries').where({ id: deliveryA }).first(),
      (d) => d?.status === 'failed',
      { what: 'the killed stream’s delivery to end' },
    );
    expect(row.attempts).toBe(1);
    const lastA = (await attemptsOf(openedA.webhookId)).at(-1);
    expect(lastA).toMatchObject({ status: 'failed', error: 'connection_refused', delivery_id: deliveryA });
    expect((await t.deps.db('webhooks').where({ id: openedA.webhookId }).first()).deleted_at).not.toBeNull();

    // The ended stream's deliveries and attempts stay in the history, through the API and the CLI; the stream itself
    // is gone from the subscriptions, and nothing can be sent to it again.
    const api = client(t.url);
    const wh = `/v1/webhooks/${openedA.webhookId}`;
    const [listedDeliveries, attemptsEnded, shownEnded, gone, listed, redeliverEnded] = await Promise.all([
      runCli(['--json', 'deliveries', 'ls', '--webhook', openedA.webhookId], env),
      api.get(`${wh}/attempts?deliveryId=${deliveryA}`, { token: owner.token }),
      runCli(['--json', 'deliveries', 'show', deliveryA, '--webhook', openedA.webhookId], env),
      api.get(wh, { token: owner.token }),
      api.get('/v1/webhooks', { token: owner.token }),
      api.post(`${wh}/deliveries/${deliveryA}/redeliver`, { token: owner.token }),
    ]);
    expect(listedDeliveries.code, listedDeliveries.stderr).toBe(0);
    expect(JSON.parse(listedDeliveries.stdout).map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining([arrived!.body.id, deliveryA]),
    );
    expect(attemptsEnded.status).toBe(200);
    expect(attemptsEnded.body.data).toEqual([
      expect.objectContaining({ deliveryId: deliveryA, status: 'failed', error: 'connection_refused' }),
    ]);
    expect(shownEnded.code, shownEnded.stderr).toBe(0);
    expect(JSON.parse(shownEnded.stdout)).toMatchObject({
      delivery: { id: deliveryA, status: 'failed' },
      attempts: [{ deliveryId: deliveryA, error: 'connection_refused' }],
    });
    expect(gone.status).toBe(404);
    // Another account reads none of it.
    const stranger = await setupAccount(t, { name: 'Stranger' });
    const [strangerDeliveries, strangerAttempts, strangerDelivery] = await Promise.all([
      api.get(`${wh}/deliveries`, { token: stranger.token }),
      api.get(`${wh}/attempts`, { token: stranger.token }),
      api.get(`${wh}/deliveries/${deliveryA}`, { token: stranger.token }),
    ]);
    expect([strangerDeliveries.status, strangerAttempts.status, strangerDelivery.status]).toEqual([404, 404, 404]);
    expect(listed.body.data.map((w: { id: string }) => w.id)).not.toContain(openedA.webhookId);
    expect(redeliverEnded.status).toBe(404);

    // Ctrl-C ends a session cleanly: exit 0, its stream deleted.
    b.proc.kill('SIGINT');
    expect(await b.exited).toBe(0);
    await waitFor(
      () => t.deps.db('webhooks').where({ id: openedB.webhookId }).first(),
      (w) => w.deleted_at !== null,
      { what: 'B’s stream to close' },
    );
  }, 300_000);

  it('trigger: a sample payload valid against the schema of every event type, accepted by the API', async () => {
    const api = client(t.url);
    const types = catalog;
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const type of types) {
      const payload = samplePayloadOfEnvelope(type.schema);
      const validate = ajv.compile({ ...type.schema.properties.payload, $defs: type.schema.$defs });
      expect(validate(payload), `${type.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const res = await api.post('/v1/webhooks/test-events', {
        token: owner.token,
        body: { event: type.name, payload },
      });
      expect(res.status, `${type.name}: ${JSON.stringify(res.body)}`).toBe(202);
    }
    const invalid = await api.post('/v1/webhooks/test-events', {
      token: owner.token,
      body: { event: 'contact.created', payload: { id: 'nope' } },
    });
    expect(invalid).toMatchObject({ status: 400, body: { error: { code: 'validation_error' } } });
  });

  it('webhooks create takes a kind, its fields and a filter; a --filter that is not JSON is a usage error', async () => {
    const other = await setupAccount(t, { name: 'Kinds', agent: { name: 'Scout' } });
    const home = mkdtempSync(join(tmpdir(), 'sb-cli-'));
    const envOf = { XDG_CONFIG_HOME: home };
    try {
      const login = await runCli(['--json', 'login', '--url', t.url, '--email', other.email], envOf, other.password);
      expect(login.code, login.stderr).toBe(0);
      const poll = await runCli(
        [
          '--json',
          'webhooks',
          'create',
          '--kind',
          'poll',
          '--events',
          'contact.created',
          '--filter',
          '{"name":{"$startsWith":"A"}}',
        ],
        envOf,
      );
      expect(poll.code, poll.stderr).toBe(0);
      expect(JSON.parse(poll.stdout)).toMatchObject({
        kind: 'poll',
        pollCredential: expect.stringMatching(/^whpoll_/),
        filter: { name: { $startsWith: 'A' } },
      });
      // A broker kind's own fields go through; the API refuses a missing one naming it.
      const rabbit = await runCli(
        [
          'webhooks',
          'create',
          'amqp://u:p@mq.example.com/',
          '--kind',
          'rabbitmq',
          '--events',
          'contact.created',
          '--exchange',
          'x',
        ],
        envOf,
      );
      expect(rabbit).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^switchboard: validation_error: .*routingKey/),
      });
      const badFilter = await runCli(
        ['webhooks', 'create', 'https://93.184.216.34/h', '--events', 'contact.created', '--filter', '{nope'],
        envOf,
      );
      expect(badFilter).toMatchObject({ code: 2, stderr: expect.stringMatching(/--filter must be JSON/) });
      const listed = await runCli(['--json', 'webhooks', 'ls'], envOf);
      expect(JSON.parse(listed.stdout).map((w: { kind: string }) => w.kind)).toEqual(['poll']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('the everyday commands against the API, with their error paths', async () => {
    const other = await setupAccount(t, { name: 'Everyday', agent: { name: 'Scout' } });
    const home = mkdtempSync(join(tmpdir(), 'sb-cli-'));
    const envOf = { XDG_CONFIG_HOME: home };
    const cli = (...args: string[]) => runCli(['--json', ...args], envOf);
    const data = (r: { code: number | null; stdout: string; stderr: string }) => {
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    try {
      const wrongPassword = await runCli(['login', '--url', t.url, '--email', other.email], envOf, 'not the password');
      expect(wrongPassword).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^switchboard: invalid_credential/),
      });
      expect(
        data(await runCli(['--json', 'login', '--url', t.url, '--email', other.email], envOf, other.password)),
      ).toMatchObject({ kind: 'session' });

      const [who, created, key, agents] = await Promise.all([
        cli('whoami'),
        cli('webhooks', 'create', 'https://93.184.216.34/hooks', '--events', 'inbox.deleted'),
        cli('keys', 'create', '--name', 'ci', '--scopes', 'read:webhooks'),
        cli('agents', 'ls'),
      ]);
      // --signature-scheme is passed through as given: the API decides, and its refusal names the field.
      const scheme = await runCli(
        [
          'webhooks',
          'create',
          'https://93.184.216.34/hooks',
          '--events',
          'inbox.deleted',
          '--signature-scheme',
          'rot13',
        ],
        envOf,
      );
      expect(scheme).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^switchboard: validation_error: .*signatureScheme/),
      });
      expect(data(who)).toMatchObject({ kind: 'session', email: other.email, account: { id: other.accountId } });
      const webhook = data(created);
      expect(webhook).toMatchObject({ kind: 'http', status: 'active', secret: expect.stringMatching(/^whsec_/) });
      const { id: keyId } = data(key);
      expect(data(agents).map((a: { id: string }) => a.id)).toEqual([other.agentId]);

      const [listed, rotated, disabled, rotatedKey, deliveries, unknownWebhook] = await Promise.all([
        cli('webhooks', 'ls'),
        cli('webhooks', 'rotate-secret', webhook.id),
        cli('webhooks', 'disable', webhook.id),
        cli('keys', 'rotate', keyId),
        cli('deliveries', 'ls', '--webhook', webhook.id, '--status', 'failed'),
        runCli(['deliveries', 'ls', '--webhook', 'wh_doesNotExist1'], envOf),
      ]);
      expect(data(listed).map((w: { id: string }) => w.id)).toEqual([webhook.id]);
      expect(data(rotated).secret).not.toBe(webhook.secret);
      expect(data(disabled)).toMatchObject({ id: webhook.id, status: 'disabled' });
      expect(data(rotatedKey)).toMatchObject({ id: keyId });
      expect(data(deliveries)).toEqual([]);
      expect(unknownWebhook).toMatchObject({ code: 1, stderr: expect.stringMatching(/^switchboard: not_found/) });
      expect(unknownWebhook.stderr.trim().split('\n')).toHaveLength(1);

      const [enabled, deactivated, keys] = await Promise.all([
        cli('webhooks', 'enable', webhook.id),
        cli('keys', 'deactivate', keyId),
        cli('keys', 'ls'),
      ]);
      expect(data(enabled)).toMatchObject({ status: 'active' });
      expect(data(deactivated)).toMatchObject({ id: keyId, status: 'deactivated' });
      expect(data(keys).map((k: { id: string }) => k.id)).toContain(keyId);

      // trigger --list: the catalog, as its help says; nothing is sent.
      const [listedTypes, listAndType] = await Promise.all([
        cli('trigger', '--list'),
        runCli(['trigger', 'contact.created', '--list'], envOf),
      ]);
      expect(data(listedTypes).map((e: { name: string }) => e.name)).toEqual(catalog.map((c) => c.name));
      expect(data(listedTypes)[0]).toEqual({
        name: catalog[0]!.name,
        status: expect.stringMatching(/^(emitted|planned)$/),
        description: expect.any(String),
      });
      expect(listAndType).toMatchObject({ code: 2, stderr: expect.stringMatching(/--list takes no event type/) });
      expect((await runCli(['trigger', '--list'], envOf)).stdout).toMatch(/^NAME +STATUS +DESCRIPTION\n/);

      // A deleted HTTP subscription's history is not found: only an ended stream's outlives its row.
      expect((await client(t.url).delete(`/v1/webhooks/${webhook.id}`, { token: other.token })).status).toBe(204);
      expect(await runCli(['deliveries', 'ls', '--webhook', webhook.id], envOf)).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^switchboard: not_found/),
      });

      // Logging out ends the session on the server too: the old token no longer works.
      const token = JSON.parse(readFileSync(join(home, 'switchboard', 'credentials.json'), 'utf8')).token;
      expect(data(await cli('logout'))).toEqual({ loggedOut: true });
      expect((await client(t.url).get('/v1/event-types', { token, unchecked: true })).status).toBe(401);
      expect(await runCli(['whoami'], envOf)).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/not logged in/),
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 300_000);

  it('a stalled listener holds at most its in-flight deliveries: another account is not delayed', async () => {
    const stalled = await startReceiver(() => ({ stallMs: 20_000 }));
    const quick = await startReceiver();
    const [slow, fast] = await Promise.all([
      setupAccount(t, { accountKey: { name: 'slow', scopes: ['write:webhooks', 'read:webhooks'] } }),
      setupAccount(t, { accountKey: { name: 'fast', scopes: ['write:webhooks', 'read:webhooks'] } }),
    ]);
    const as = (key: string) => ({ SWITCHBOARD_URL: t.url, SWITCHBOARD_API_KEY: key });
    const slowCli = startCli(['--json', 'listen', '--forward-to', stalled.url], as(slow.accountKey.key));
    const fastCli = startCli(['--json', 'listen', '--forward-to', quick.url], as(fast.accountKey.key));
    live.push(slowCli, fastCli);
    try {
      await Promise.all([
        slowCli.waitForJson((l) => l.type === 'opened'),
        fastCli.waitForJson((l) => l.type === 'opened'),
      ]);
      const api = client(t.url);
      const fire = (token: string) =>
        api.post('/v1/webhooks/test-events', {
          token,
          body: { event: 'webhook.disabled', payload: samplePayloadOf('webhook.disabled') },
        });
      for (let i = 0; i < 10; i++) expect((await fire(slow.token)).status).toBe(202);
      await stalled.waitFor(2);
      expect((await fire(fast.token)).status).toBe(202);
      // The other account's delivery goes through while the stalled stream holds its two (of ten worker slots);
      // the stalled stream was never handed a third.
      await quick.waitFor(1);
      expect(stalled.received).toHaveLength(2);
      const pending = await t.deps.db('webhook_deliveries').where({ account_id: slow.accountId, status: 'pending' });
      expect(pending).toHaveLength(10);

      // A web process shutting down ends its streams first (its drain would wait on them forever otherwise): each
      // CLI is told why and exits 1, and each stream is closed.
      await t.deps.streamHub.endAll('The service is restarting; run switchboard listen again');
      expect(await slowCli.exited).toBe(1);
      expect(await fastCli.exited).toBe(1);
      expect(fastCli.stderr()).toMatch(/^switchboard: The service is restarting/);
      const open = await t.deps
        .db('webhooks')
        .whereIn('account_id', [slow.accountId, fast.accountId])
        .whereNull('deleted_at');
      expect(open).toEqual([]);
    } finally {
      slowCli.proc.kill('SIGKILL');
      fastCli.proc.kill('SIGKILL');
      await Promise.all([stalled.close(), quick.close()]);
    }
  }, 300_000);

  it('a listener started through npx ends, its stream closed, when npx is killed', async () => {
    // npx runs the command under `sh -c`, which outlives a SIGKILL of npx and keeps the listener's parent as it was.
    const npx = spawnChild('npx', ['switchboard', '--json', 'listen', '--forward-to', receiver.url], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        HOME: process.env.HOME ?? '',
        NO_COLOR: '1',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    npx.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    npx.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const below: number[] = [];
    try {
      const opened = await waitFor(
        () => out.split('\n').find((l) => l.startsWith('{') && JSON.parse(l).type === 'opened'),
        (line) => line !== undefined || npx.exitCode !== null,
        { what: 'the opened line', timeoutMs: 30_000 },
      );
      expect(opened, err).toBeDefined();
      const { webhookId } = JSON.parse(opened!);
      below.push(...descendantsOf(npx.pid!));
      // The shell and the listener (node) at least.
      expect(below.length, JSON.stringify(below)).toBeGreaterThanOrEqual(2);
      npx.kill('SIGKILL');
      await waitFor(
        () => below.filter(isRunning),
        (running) => running.length === 0,
        { what: 'the listener and its shell to exit' },
      );
      await waitFor(
        () => t.deps.db('webhooks').where({ id: webhookId }).first(),
        (w) => w.deleted_at !== null,
        { what: 'the stream to close' },
      );
    } finally {
      npx.kill('SIGKILL');
      for (const pid of below.filter(isRunning)) process.kill(pid, 'SIGKILL');
    }
  }, 300_000);
});
