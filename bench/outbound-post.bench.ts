import { Agent, request } from 'undici';
import { loadConfig } from '../src/platform/config.js';
import { CONNECTIONS_PER_ORIGIN, createHttpClient } from '../src/platform/http-client.js';
import { USER_AGENT } from '../src/delivery/sign.js';
import { startReceiver } from '../test/helpers/receiver.js';
import type { Benchmark } from './run.js';
import { percentile } from './webhook-helpers.js';

// One webhook attempt's POST, alone: the service's outbound client (src/platform/http-client.ts: the address rules,
// one timer, the answer's status, headers and first 4 KiB kept) against undici's `request` reading the answer as
// the floor's bare worker does, each with a delivery's nine headers, to one receiver in this process, 100 at a
// time. Node CPU per POST of this process (client and receiver together), alternating rounds.

const N = Number(process.env.BENCH_POST_N ?? 20_000);
const ROUNDS = 5;
const CONCURRENCY = 100;

export const outboundPostBenchmark: Benchmark = {
  id: 'outbound',
  name: `outbound-post: ${N} POSTs with a delivery's headers, our client vs undici.request (node CPU per POST)`,
  async run() {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const receiver = await startReceiver();
    const client = createHttpClient(config);
    const dispatcher = new Agent({ connections: CONNECTIONS_PER_ORIGIN, keepAliveTimeout: 10_000 });
    const url = `${receiver.url}/post`;
    const id = crypto.randomUUID();
    const body = JSON.stringify({ id, event: 'message.received', timestamp: new Date().toISOString(), payload: {} });
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-switchboard-event': 'message.received',
      'x-switchboard-delivery': id,
      'x-switchboard-signature': `t=1700000000,v1=${'a'.repeat(64)}`,
      'webhook-id': id,
      'webhook-timestamp': '1700000000',
      'webhook-signature': `v1,${'b'.repeat(44)}`,
    };
    const sides = {
      client: async () => {
        const res = await client.post(url, body, headers);
        if (!res.ok) throw new Error(`POST failed: ${res.message}`);
      },
      undici: async () => {
        const res = await request(url, { method: 'POST', body, headers, dispatcher });
        await res.body.text();
      },
    };
    const cpuUsPerPost: Record<keyof typeof sides, number[]> = { client: [], undici: [] };
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of (round % 2 ? ['undici', 'client'] : ['client', 'undici']) as Array<keyof typeof sides>) {
          let sent = 0;
          const before = process.cpuUsage();
          await Promise.all(
            Array.from({ length: CONCURRENCY }, async () => {
              while (sent++ < N) await sides[side]();
            }),
          );
          const used = process.cpuUsage(before);
          cpuUsPerPost[side].push(Math.round((used.user + used.system) / N));
          receiver.received.length = 0;
        }
      }
      // The first round warms both up; the median of the rest.
      const median = (xs: number[]) =>
        percentile(
          xs.slice(1).sort((a, b) => a - b),
          50,
        );
      return {
        node_cpu_us_per_post: cpuUsPerPost,
        client_over_undici: +(median(cpuUsPerPost.client) / median(cpuUsPerPost.undici)).toFixed(2),
      };
    } finally {
      await client.close();
      await dispatcher.close();
      await receiver.close();
    }
  },
};
