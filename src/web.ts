import { logStartup } from './http/banner.js';
import { bootRuntime, onShutdown, runMain } from './app/runtime.js';
import { describeRoles, startRoles } from './app/roles.js';

// Procfile "web": the API only. Migrations are the release phase's job.
runMain(async () => {
  const runtime = await bootRuntime({ name: 'switchboard-api', migrate: false });
  const { deps } = runtime;
  const roles = { api: true, workers: false };
  const running = await startRoles(runtime, roles);
  const facts = { config: deps.config, url: running.publicUrl!, roles: describeRoles(roles), started: runtime.started };
  logStartup(deps.logger, facts);
  onShutdown(deps.logger, deps.config.shutdownTimeoutMs, running.stop);
});
