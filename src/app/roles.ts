import { startMetricsServer } from '../http/metrics-server.js';
import { registerShards } from '../delivery/shard-registry.js';
import type { Runtime } from './runtime.js';

export interface RoleSet {
  api: boolean;
  workers: boolean;
}

export interface RunningRoles {
  /** The origin clients reach the API at, when this process serves it. */
  publicUrl: string | null;
  /**
   * Drains: /readyz answers 503 at once, the listener closes, requests and jobs in flight finish. What is still
   * running at `deadline` is handed back instead: connections are cut, and a job's lock lapses so that BullMQ gives
   * it to another worker (the sweep schedules its delivery again), so nothing is lost by stopping.
   */
  stop(deadline: Promise<void>): Promise<void>;
}

/**
 * Starts the API and/or every queue's worker with the job schedulers on one runtime. Each role's code is loaded
 * only by a process that runs it: a worker process holds none of the HTTP surface, and the API none of the
 * workers (docs/processes.md#memory).
 */
export async function startRoles(runtime: Runtime, roles: RoleSet): Promise<RunningRoles> {
  const { deps } = runtime;
  // The API listens first: a port in use refuses before any worker has taken a job.
  const server = roles.api ? await (await import('../http/server.js')).startServer(deps, deps.config.port) : null;
  // Recorded by the API too: what it adds under its WEBHOOK_SHARDS is drained by workers of another K (a
  // rolling deploy), not left for workers of its own K only (docs/scaling.md#changing-k).
  if (server) {
    await registerShards(deps).catch((err: Error) =>
      deps.logger.warn({ err: err.message }, 'could not record the delivery shards; the workers will'),
    );
  }
  // A process without the API serves /metrics and /healthz on METRICS_PORT, when set: healthy from the moment
  // every worker runs until shutdown starts. Listening first: a busy port stops start-up before any job is taken.
  const metricsPort = roles.api ? null : deps.config.metricsPort;
  let workersRunning = false;
  const healthy = () => workersRunning && !deps.lifecycle.draining && workers!.workers.every((w) => w.isRunning());
  const metrics = metricsPort === null ? null : await startMetricsServer(deps, metricsPort, healthy);
  const workers = roles.workers ? await (await import('../../workers/index.js')).startWorkers(deps) : null;
  workersRunning = workers !== null;
  if (metrics) deps.logger.info({ metrics: `${metrics.url}/metrics` }, 'worker metrics and health served');
  return {
    publicUrl: server?.publicUrl ?? null,
    async stop(deadline) {
      deps.lifecycle.draining = true;
      // Open `switchboard listen` streams never end by themselves: ended first, so the drain is not held by them.
      if (server) await deps.streamHub.endAll('The service is restarting; run switchboard listen again');
      const drained = Promise.all([server?.close(deadline), workers?.close()]).then(() => true);
      void drained.then(() => metrics?.close());
      if (!(await Promise.race([drained, deadline.then(() => false)]))) {
        deps.logger.warn('shutdown deadline reached with jobs in flight: they are handed back to the queue');
        return;
      }
      await runtime.close();
    },
  };
}

/** How a person reads a role set in the banner and logs. */
export function describeRoles(roles: RoleSet): string {
  return [roles.api && 'api', roles.workers && 'workers + scheduler'].filter(Boolean).join(' + ');
}
