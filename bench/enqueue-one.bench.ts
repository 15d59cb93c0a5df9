import { Queue } from 'bullmq';
import { jobs } from '../src/platform/queues.js';
import type { Benchmark } from './run.js';

// One delivery job added at a time, as a commit adds its event's job: `queue.add` against `addBulk` of one job
// (src/platform/queues.ts picks add for a batch of one). Node CPU per job of this process, alternating rounds.

const N = Number(process.env.BENCH_ENQUEUE_N ?? 3000);

export const enqueueOneBenchmark: Benchmark = {
  id: 'enqueue',
  name: `enqueue-one: ${N} single delivery jobs, queue.add vs addBulk of one (node CPU per job)`,
  async run(env) {
    const { deps, close } = await env.createDeps();
    const queue = new Queue('bench-enqueue', { connection: deps.redis, prefix: deps.config.bullmqPrefix });
    const opts = jobs.deliverWebhook.options(deps.config);
    const figures: Record<string, number[]> = { add: [], addBulk: [] };
    try {
      for (let round = 0; round < 3; round++) {
        for (const mode of ['addBulk', 'add'] as const) {
          const before = process.cpuUsage();
          for (let i = 0; i < N; i++) {
            const job = {
              name: jobs.deliverWebhook.name,
              data: { deliveryId: crypto.randomUUID(), seq: 1 },
              opts: { ...opts, jobId: `${mode}.${round}.${i}` },
            };
            if (mode === 'add') await queue.add(job.name, job.data, job.opts);
            else await queue.addBulk([job]);
          }
          const used = process.cpuUsage(before);
          figures[mode]!.push(Math.round((used.user + used.system) / N));
        }
      }
      return { node_cpu_us_per_job: figures };
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await close();
    }
  },
};
