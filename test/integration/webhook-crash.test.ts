import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/webhooks/outbox.js';
import { client, signupAccount } from '../helpers/http.js';
import { startReceiver, waitUntil, type Receiver } from '../helpers/receiver.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// At-least-once delivery across a crash: a worker process killed with SIGKILL while its request is in flight
// loses nothing; another worker delivers the same envelope id once the dead worker's lock lapses.

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,100', WEBHOOK_TIMEOUT_MS: '1000' } as const;

let t: TestContext;
let receiver: Receiver;
let child: ChildProcess | undefined;

beforeAll(async () => {
  t = await createTestContext(ENV);
  // The first request stalls (the worker is killed while waiting); later ones succeed.
  receiver = await startReceiver((_req, i) => (i === 0 ? { stallMs: 20_000 } : { status: 200 }));
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await receiver?.close();
  await t?.close();
});

function spawnWorker(): Promise<ChildProcess> {
  const { config } = t.deps;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/worker-process.ts'], {
    env: {
      ...process.env,
      ...ENV,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: config.database.url,
      REDIS_URL: config.redis.url,
      BULLMQ_PREFIX: config.bullmqPrefix,
      APP_SECRET: config.appSecret,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker process did not start')), 20_000);
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) {
        clearTimeout(timer);
        resolve(proc);
      }
    });
    proc.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

describe('a worker killed mid-delivery', () => {
  it('loses nothing: another worker delivers the same envelope id', async () => {
    const api = client(t.url);
    const { token, accountId } = await signupAccount(api);
    const wh = (await api.post('/v1/webhooks', { token, body: { url: receiver.url, events: ['message.received'] } })).body;
    child = await spawnWorker();

    await transactWithEvents(t.deps, accountId, (_trx, emit) => emit({ type: 'message.received', payload: { id: 'msg_crash' } }));
    const [first] = await receiver.waitFor(1, 10_000);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    expect(await exited).toBe(null);

    await t.startWorkers();
    const [, second] = await receiver.waitFor(2, 20_000);
    expect(second!.body.id).toBe(first!.body.id);
    expect(second!.body.payload).toEqual({ id: 'msg_crash' });

    const delivery = await waitUntil(async () => {
      const d = (await api.get(`/v1/webhooks/${wh.id}/deliveries`, { token })).body.data[0];
      return d?.status === 'succeeded' && d;
    });
    expect(delivery.id).toBe(first!.body.id);
    // The killed attempt never finished, so only the successful one is on record.
    const attempts = (await api.get(`/v1/webhooks/${wh.id}/attempts`, { token })).body.data;
    expect(attempts.map((a: any) => a.status)).toEqual(['succeeded']);
  }, 45_000);
});
