import { logStartup } from './http/banner.js';
import { startServer } from './http/server.js';
import { bootRuntime, onShutdown, runMain } from './app/runtime.js';
import { startWorkers } from '../workers/index.js';

// npm start: migrations, then the API, every worker and the scheduler in one process.
runMain(async () => {
  const runtime = await bootRuntime({ migrate: true });
  const { deps } = runtime;
  const workers = await startWorkers(deps);
  const server = await startServer(deps, deps.config.port);
  logStartup(deps.logger, { config: deps.config, url: server.publicUrl, roles: 'api + workers + scheduler', started: runtime.started });
  onShutdown(deps.logger, async () => {
    await server.close();
    await workers.close();
    await runtime.close();
  });
});
