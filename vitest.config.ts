import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database and BullMQ prefix, so files may run in parallel.
    pool: 'forks',
    maxWorkers: 2,
    // The two worker processes each run their share of the files one after another, loading the service's modules
    // once: a fresh process and module graph for every file cost about 2 s of imports each, a third of the suite's
    // time on a 2-core machine. It holds because no state lives in a module (every cache, registry and connection
    // hangs off the app's deps or a test's own context) and no test mocks a module or changes process.env
    // (docs/operations.md, Commands).
    isolate: false,
  },
});
