import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { bootRuntime } from '../src/app/runtime.js';
import { loadConfig } from '../src/platform/config.js';
import { startWorkers } from '../workers/index.js';

// The service's workers in a process of their own, as test/helpers/worker-process.ts runs them, with V8's
// profiler: SIGUSR2 starts it, SIGUSR1 writes the profile to BENCH_PROFILE_OUT and prints "profiled".

const out = process.env.BENCH_PROFILE_OUT!;
const runtime = await bootRuntime({ name: 'switchboard-workers', migrate: false, config: loadConfig(process.env) });
await startWorkers(runtime.deps, { schedule: false });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
process.on('SIGUSR2', () => void session.post('Profiler.start'));
process.on('SIGUSR1', () => {
  void session.post('Profiler.stop').then(({ profile }) => {
    writeFileSync(out, JSON.stringify(profile));
    process.stdout.write('profiled\n');
  });
});
process.stdout.write('ready\n');
