import { startServer } from './http/server.js';
import { bootRuntime, onShutdown, runMain } from './platform/runtime.js';
import { startWorkers } from '../workers/index.js';

// npm start: migrations, then the API, every worker and the scheduler in one process.
runMain(async () => {
  const runtime = await bootRuntime({ migrate: true });
  const { deps } = runtime;
  const workers = await startWorkers(deps);
  const server = await startServer(deps, deps.config.port);
  deps.logger.info({ port: deps.config.port }, 'switchboard listening (api + workers + scheduler)');
  onShutdown(deps.logger, async () => {
    await server.close();
    await workers.close();
    await runtime.close();
  });
});
