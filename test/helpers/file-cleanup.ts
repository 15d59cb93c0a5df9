import { afterAll } from 'vitest';
import { endChildren } from './children.js';
import { closeContexts } from './test-context.js';

// A setup file (vitest.config.ts): after every file's own afterAll hooks, whatever the file left (a test that
// failed or timed out before its own cleanup, a context half made) is ended here: its process groups, then its
// contexts' servers, connections, databases and keys. What a worker that crashed left ends with the run
// (test/helpers/leftovers.ts).

afterAll(async () => {
  await endChildren();
  await closeContexts();
}, 120_000);
