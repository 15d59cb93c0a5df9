import { defineConfig } from 'vitest/config';
import { SlowFirst } from './test/helpers/slow-first.js';

// The workspace packages (packages/*) are tested as their TypeScript source, through the condition their
// package.json exports it under (docs/adr/0085-receiver-library.md); tsconfig.json's customConditions says the same
// to the type checker. The rest is vitest's own default: without `module`, which vitest also passes to Node as
// --conditions for the dependencies it does not transform, and some packages' `module` builds only a bundler loads.
const SOURCE_CONDITIONS = ['@switchboard/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // After each file's own afterAll: what it left running or made (test/helpers/file-cleanup.ts).
    setupFiles: ['test/helpers/file-cleanup.ts'],
    // Caps that only bound a hang: a test waits on conditions (test/helpers/wait.ts), and one that passes in 3 s on
    // a quiet machine may take four times as long on a loaded one.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Long files first (test/helpers/slow-first.ts), so that neither worker ends the run with one of them alone.
    sequence: { sequencer: SlowFirst },
    // Each file gets its own database and BullMQ prefix, so files may run in parallel. Three workers on two cores:
    // much of a file's time is spent waiting (a process starting, a retry delay, a lock to lapse), which a third
    // worker fills with another file's work.
    pool: 'forks',
    maxWorkers: 3,
    // The worker processes each run their share of the files one after another, loading the service's modules
    // once: a fresh process and module graph for every file cost about 2 s of imports each, and the suite took
    // 600 s with them against 330 s without on a 2-core machine. It holds as long as no state lives in a module
    // (every cache, registry and connection hangs off the app's deps or a test's own context; `npm run lint`
    // refuses module-level state, scripts/eslint-module-state.js) and no test mocks a module, changes process.env
    // or leaves a timer running (docs/operations.md, Commands).
    isolate: false,
  },
});
