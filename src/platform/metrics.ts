import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { now } from './clock.js';
import { everyQueue, type Queues } from './queues.js';
import { tracingState } from './tracing.js';

// The service's Prometheus metrics, the same set in every process (web, worker, or both in one): each process
// counts what it did, and the queue gauges are read from Redis at scrape time. docs/production.md lists
// them and docs/grafana-dashboard.json charts them.

const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'failed',
  'completed',
  'prioritized',
  'waiting-children',
] as const;

/** 2xx … 5xx, or `error` when no HTTP answer came back (timeout, refused, TLS, SSRF refusal). */
export const statusClassOf = (status: number | null): string => (status ? `${Math.floor(status / 100)}xx` : 'error');

/** One registry per runtime, so two runtimes in one process (tests) never share series. */
export function createServiceMetrics(queues: Queues) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  new Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs per queue and state, read at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      // Each delivery shard is its own series (webhook-delivery-p0 …; K=1: webhook-delivery).
      for (const { queue } of everyQueue(queues)) {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: 'switchboard_queue_oldest_waiting_seconds',
    help: 'Age of the oldest job ready to run but not started, per queue (0 when none waits), read at scrape time',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const at = now().getTime();
      for (const { queue } of everyQueue(queues)) {
        // BullMQ's wait list is newest first; getWaiting reads it oldest first.
        const [oldest] = await queue.getWaiting(0, 0);
        const readySince = oldest ? oldest.timestamp + (oldest.delay ?? 0) : at;
        this.set({ queue: queue.name }, Math.max(0, at - readySince) / 1000);
      }
    },
  });
  new Counter({
    name: 'switchboard_trace_spans_dropped_total',
    help: 'Spans never exported: the export queue was full (queue_full) or the collector failed or timed out (export_failed)',
    labelNames: ['reason'] as const,
    registers,
    // The SDK counts in this process (src/platform/tracing-sdk.ts); 0 when tracing is off.
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(tracingState.dropped)) this.inc({ reason }, count);
    },
  });
  return {
    registry,
    deliveries: new Counter({
      name: 'switchboard_webhook_deliveries_total',
      help: 'Delivery attempts by what followed (succeeded, retry, exhausted, gone) and the status class',
      labelNames: ['outcome', 'status_class'] as const,
      registers,
    }),
    attemptDuration: new Histogram({
      name: 'switchboard_webhook_attempt_duration_seconds',
      help: 'Duration of one delivery attempt (the outbound POST), by status class',
      labelNames: ['status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    commitToArrival: new Histogram({
      name: 'switchboard_webhook_commit_to_arrival_seconds',
      help: 'From the event committed to the receiver answering 2xx (retries included)',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200],
      registers,
    }),
    sweepRescheduled: new Counter({
      name: 'switchboard_webhook_sweep_rescheduled_total',
      help: 'Deliveries the sweep scheduled again because their job was gone (ordering keys it advanced included)',
      registers,
    }),
    throttleWaits: new Counter({
      name: 'switchboard_webhook_throttle_waits_total',
      help: "Deliveries held back by their subscription's rate limit (each wait counted once)",
      registers,
    }),
    subscriptionsDisabled: new Counter({
      name: 'switchboard_webhook_subscriptions_disabled_total',
      help: 'Subscriptions disabled by the service, by reason (failures: every retry failed; gone: 410)',
      labelNames: ['reason'] as const,
      registers,
    }),
    workersReplaced: new Counter({
      name: 'switchboard_workers_replaced_total',
      help: 'Workers replaced by the watchdog: they had room and took no job while one of their queue was ready',
      labelNames: ['queue'] as const,
      registers,
    }),
    keyCache: new Counter({
      name: 'switchboard_key_cache_lookups_total',
      help: 'API key lookups: hit (cached row current), miss (loaded from Postgres), bypass (Redis unreadable)',
      labelNames: ['result'] as const,
      registers,
    }),
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;

/** The text of several registries as one scrape (a process's HTTP histogram is kept apart from the service's). */
export async function renderMetrics(registries: Registry[]): Promise<{ contentType: string; body: string }> {
  const parts = await Promise.all(registries.map((r) => r.metrics()));
  return { contentType: registries[0]!.contentType, body: parts.join('\n') };
}
