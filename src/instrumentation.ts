import { register } from 'node:module';
import { basename, extname } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { ConfigError, loadTracingConfig } from './platform/config.js';

// Traces (docs/tracing.md): loaded before the service with `node --import ./dist/src/instrumentation.js` (npm
// scripts, the Procfile and the image do it; npm start's children inherit it). With no OTLP endpoint set it reads
// a few variables and returns: the SDK and the instrumentations are never imported. Otherwise it registers the
// loader hook that lets the instrumentations patch ES modules (pg, ioredis, koa, http), on the modules they name
// only, and starts the SDK before the service's first import.

const config = readConfig();
if (config && isMainThread) {
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const { startTracing } = await import('./platform/tracing-sdk.js');
  startTracing(config, serviceNameOf(process.argv));
  await waitForAllMessagesAcknowledged();
}

function readConfig() {
  try {
    return loadTracingConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`switchboard: ${err.message}`);
    process.exit(1);
  }
}

/** The default service.name, by what this process runs: the API, workers, or npm start (all, or the supervisor). */
function serviceNameOf(argv: string[]): string {
  const entry = argv[1] ? basename(argv[1], extname(argv[1])) : '';
  const role = entry === 'supervised' ? argv[2] : entry;
  if (role === 'web' || role === 'api') return 'switchboard-api';
  if (role === 'worker' || role === 'workers') return 'switchboard-worker';
  return 'switchboard';
}
