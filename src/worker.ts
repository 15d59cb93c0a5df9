import { bootRuntime, onShutdown, runMain } from './app/runtime.js';
import { startRoles } from './app/roles.js';

// Procfile "worker": every queue's worker and the job schedulers, and with METRICS_PORT set /metrics and /healthz.
runMain(async () => {
  const runtime = await bootRuntime({ name: 'switchboard-workers', migrate: false });
  const { deps } = runtime;
  const running = await startRoles(runtime, { api: false, workers: true });
  deps.logger.info('switchboard workers running');
  onShutdown(deps.logger, deps.config.shutdownTimeoutMs, running.stop);
});
