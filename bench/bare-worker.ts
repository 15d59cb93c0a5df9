import { Worker } from 'bullmq';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/platform/config.js';
import { createWorkerRedis } from '../src/platform/redis.js';

// The baseline worker process of the webhook benchmark's (c) floor: bare BullMQ jobs whose processor only POSTs
// `{payload: {n}}` to BENCH_TARGET with undici, at the same concurrency as the webhook workers. Prints "ready".

const config = loadConfig(process.env);
const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
const target = process.env.BENCH_TARGET!;
const worker = new Worker(
  'bench-bare',
  async (job) => {
    const body = JSON.stringify({
      id: job.id,
      event: 'message.sent',
      timestamp: new Date().toISOString(),
      apiVersion: '2026-11-01',
      inboxId: null,
      messageId: null,
      payload: { n: job.data.n },
    });
    const res = await request(target, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher,
    });
    await res.body.text();
  },
  {
    connection: createWorkerRedis(config.redis.url),
    prefix: config.bullmqPrefix,
    concurrency: config.webhooks.concurrency,
  },
);
await worker.waitUntilReady();
process.stdout.write('ready\n');
