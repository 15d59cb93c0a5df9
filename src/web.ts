import { startServer } from './http/server.js';
import { bootRuntime, onShutdown, runMain } from './platform/runtime.js';

// Procfile "web": the API only. Migrations are the release phase's job.
runMain(async () => {
  const runtime = await bootRuntime({ migrate: false });
  const { deps } = runtime;
  const server = await startServer(deps, deps.config.port);
  deps.logger.info({ port: deps.config.port }, 'switchboard api listening');
  onShutdown(deps.logger, async () => {
    await server.close();
    await runtime.close();
  });
});
