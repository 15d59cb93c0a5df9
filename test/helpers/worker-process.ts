import { loadConfig } from '../../src/platform/config.js';
import { bootRuntime } from '../../src/app/runtime.js';
import { startWorkers } from '../../workers/index.js';

// A separate worker process for crash tests: runs every queue's worker on the database, Redis and BullMQ
// prefix given in its environment (and the job schedulers with --schedule), and prints "ready" once listening.

const runtime = await bootRuntime({ name: 'switchboard-workers', migrate: false, config: loadConfig(process.env) });
await startWorkers(runtime.deps, { schedule: process.argv.includes('--schedule') });
process.stdout.write('ready\n');
