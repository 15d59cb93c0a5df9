import { startMetricsServer } from './http/metrics-server.js';
import { bootRuntime, onShutdown, runMain } from './app/runtime.js';
import { startWorkers } from '../workers/index.js';

// Procfile "worker": every queue's worker and the job schedulers, and with METRICS_PORT set /metrics and /healthz.
runMain(async () => {
  const runtime = await bootRuntime({ migrate: false });
  const { deps } = runtime;
  // Healthy from the moment every worker runs until shutdown starts.
  let running = false;
  const healthy = () => running && workers.workers.every((w) => w.isRunning());
  // Listening first: a busy METRICS_PORT stops start-up before any job is taken.
  const port = deps.config.metricsPort;
  const metrics = port === null ? undefined : await startMetricsServer(deps, port, healthy);
  const workers = await startWorkers(deps);
  running = true;
  deps.logger.info({ metrics: metrics ? `${metrics.url}/metrics` : null }, 'switchboard workers running');
  onShutdown(deps.logger, async () => {
    running = false;
    await workers.close();
    await metrics?.close();
    await runtime.close();
  });
});
