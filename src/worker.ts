import { bootRuntime, onShutdown, runMain } from './app/runtime.js';
import { startWorkers } from '../workers/index.js';

// Procfile "worker": every queue's worker and the job schedulers.
runMain(async () => {
  const runtime = await bootRuntime({ migrate: false });
  const { deps } = runtime;
  const workers = await startWorkers(deps);
  deps.logger.info('switchboard workers running');
  onShutdown(deps.logger, async () => {
    await workers.close();
    await runtime.close();
  });
});
