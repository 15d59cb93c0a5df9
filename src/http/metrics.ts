import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QUEUE_NAMES, type Queues } from '../platform/queues.js';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children'] as const;

/** One registry per app instance, so two apps in one process (tests) never share series. */
export function createHttpMetrics(queues: Queues) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs per queue and state, read at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const name of QUEUE_NAMES) {
        const counts = await queues[name].getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
      }
    },
  });
  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      duration.observe({ method, route, status: String(status) }, seconds);
    },
  };
}

export type HttpMetrics = ReturnType<typeof createHttpMetrics>;
