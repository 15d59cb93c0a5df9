import { logStartup } from './http/banner.js';
import { startServer } from './http/server.js';
import { bootRuntime, onShutdown, runMain } from './app/runtime.js';

// Procfile "web": the API only. Migrations are the release phase's job.
runMain(async () => {
  const runtime = await bootRuntime({ migrate: false });
  const { deps } = runtime;
  const server = await startServer(deps, deps.config.port);
  logStartup(deps.logger, { config: deps.config, url: server.publicUrl, roles: 'api', started: runtime.started });
  onShutdown(deps.logger, async () => {
    await server.close();
    await runtime.close();
  });
});
