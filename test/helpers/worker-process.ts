import { loadConfig } from '../../src/platform/config.js';
import { bootRuntime } from '../../src/platform/runtime.js';
import { startWorkers } from '../../workers/index.js';

// A separate worker process for crash tests: runs every queue's worker on the database, Redis and BullMQ
// prefix given in its environment, and prints "ready" once the workers are listening.

const runtime = await bootRuntime({ migrate: false, config: loadConfig(process.env) });
await startWorkers(runtime.deps, { schedule: false });
process.stdout.write('ready\n');
