import { bootRuntime, onShutdown, runMain } from './app/runtime.js';
import { startRoles } from './app/roles.js';
import { CHILD_ROLES, type ChildRole, type ReadyMessage } from './app/supervisor.js';

// A child process of npm start (src/main.ts): one role, on the database and Redis its parent resolved (and
// migrated), with the same configuration. It tells the parent when it is ready.
runMain(async () => {
  const role = process.argv[2] as ChildRole;
  if (!CHILD_ROLES.includes(role)) throw new Error(`expected a role among ${CHILD_ROLES.join(', ')}, got ${role}`);
  const runtime = await bootRuntime({ name: `switchboard-${role}`, migrate: false });
  const { deps } = runtime;
  const running = await startRoles(runtime, { api: role === 'api', workers: role === 'workers' });
  const shutdown = onShutdown(deps.logger, deps.config.shutdownTimeoutMs, running.stop);
  // The parent is gone (killed hard): drain and stop rather than run unsupervised.
  process.on('disconnect', () => shutdown('supervisor gone'));
  const ready: ReadyMessage = { type: 'ready', publicUrl: running.publicUrl };
  process.send?.(ready);
  deps.logger.info({ role }, `switchboard ${role} process ready`);
});
