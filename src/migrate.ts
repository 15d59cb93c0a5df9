import { bootRuntime, runMain } from './app/runtime.js';

// npm run migrate / Procfile "release": apply migrations and exit.
runMain(async () => {
  const runtime = await bootRuntime({ name: 'switchboard-migrate', migrate: true });
  runtime.deps.logger.info('migrations up to date');
  await runtime.close();
});
