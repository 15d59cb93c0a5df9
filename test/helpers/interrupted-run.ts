import { endRun } from './leftovers.js';

// Run by global-setup's handler of SIGINT and SIGTERM, to its end before vitest exits (vitest exits at once on
// either, without its teardown): ends the run's workers first, then everything of the run
// (test/helpers/leftovers.ts). Arguments: the run's id, a database URL of its server, its Redis URL.

const [runId, databaseUrl, redisUrl] = process.argv.slice(2);
await endRun(runId!, { databaseUrl: databaseUrl!, redisUrl: redisUrl! }, { workers: true });
