import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../src/auth/access.js';
import { createApp } from '../../src/http/app.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { createLogger } from '../../src/platform/logger.js';
import { startTestDnsServer, type TestDnsServer } from '../helpers/dns.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { runFuzz } from './runner.js';
import { buildWorld, snapshotAccount, type World } from './world.js';

// The project's own fuzz test (docs/api-keys.md#input-limits): seeded hostile requests over every route of the
// router, with every type of credential. `npm test` runs a bounded number; `npm run fuzz` a long run (FUZZ_COUNT,
// default 100,000). Every run prints its seed; FUZZ_SEED=<seed> replays the same requests.

const COUNT = Number(process.env.FUZZ_COUNT ?? 3_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 32);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const TIMEOUT_MS = 15_000;

let t: TestContext;
let dns: TestDnsServer;
let server: RunningServer;
let world: World;
const logLines: Array<{ level: string; msg: string; pgCode?: string; route?: string; err?: unknown }> = [];

beforeAll(async () => {
  // A local DNS server answers the domain checks at once (NXDOMAIN) instead of the host's resolvers.
  dns = await startTestDnsServer();
  t = await createTestContext({}, { tune: (config) => void (config.dns.servers = [dns.address]) });
  const logs = new Writable({
    write: (chunk, _enc, done) => {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  // The same app on its own server with a logger that keeps warnings and errors, to count what reached them.
  server = await startServer({ ...t.deps, logger: createLogger('warn', 'fuzz', logs) }, 0, '127.0.0.1');
  world = await buildWorld(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await dns?.close();
});

describe('fuzz: hostile requests over every route', () => {
  it(
    `answers every request with a clean 4xx or a success (${COUNT} requests)`,
    { timeout: COUNT * 30 + 120_000 },
    async () => {
      console.log(`fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${COUNT} requests, ${CONCURRENCY} connections`);
      // A stream destination's success is an answer that never ends (server-sent events): the fuzz judges whole
      // answers, so it leaves that route to test/integration/cli-listen.test.ts, which tests its refusals too.
      const routes = [...createApp(t.deps).api.declarations]
        .filter(([key]) => key !== 'GET /v1/webhook-streams')
        .map(([key, access]) => [...(key.split(' ') as [string, string]), access] as [string, string, Access]);
      expect(routes.length).toBeGreaterThanOrEqual(70);
      const controlBefore = await snapshotAccount(t, world.controlAccountId);
      const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

      const step = Math.max(1_000, Math.round(COUNT / 10));
      const report = await runFuzz({
        url: server.url,
        seed: SEED,
        count: COUNT,
        concurrency: CONCURRENCY,
        timeoutMs: TIMEOUT_MS,
        routes,
        world,
        onProgress: (done) => {
          if (done % step === 0) console.log(`fuzz: ${done}/${COUNT}`);
        },
      });

      const unhandled = logLines.filter((l) => l.level === 'error' || l.level === 'fatal');
      const dataExceptions = logLines.filter((l) => l.msg === 'the database refused input that validation accepted');
      console.log(
        `fuzz: seed ${SEED}: ${report.count} requests in ${(report.durationMs / 1000).toFixed(1)} s; ` +
          `5xx ${report.serverErrors}, unanswered ${report.unanswered}, failures ${report.failures.length}, ` +
          `errors logged ${unhandled.length}, database refusals ${dataExceptions.length}; statuses ${JSON.stringify(report.statuses)}`,
      );
      const slowest = Object.entries(report.msByRoute)
        .sort(([, a], [, b]) => b - a)
        .slice(0, 5);
      console.log(
        `fuzz: most time spent on ${slowest.map(([route, ms]) => `${route} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
      );
      for (const f of report.failures.slice(0, 15))
        console.log(`fuzz failure #${f.index}: ${f.reason}\n  request: ${f.request}\n  response: ${f.response ?? '-'}`);
      for (const l of [...unhandled, ...dataExceptions].slice(0, 10))
        console.log('fuzz log:', JSON.stringify(l).slice(0, 600));

      expect(report.failures.map((f) => `#${f.index} ${f.reason}`)).toEqual([]);
      expect(unhandled.map((l) => l.msg)).toEqual([]);
      // A data exception (class 22) means validation missed a rule; integrity violations (23) can also be races.
      expect(dataExceptions.filter((l) => l.pgCode?.startsWith('22')).map((l) => `${l.route} ${l.pgCode}`)).toEqual([]);
      // Control records: another tenant's rows are exactly as they were, and no prototype was polluted.
      expect(await snapshotAccount(t, world.controlAccountId)).toEqual(controlBefore);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // Enough of the run got past authentication and validation to mean something.
      const successes = Object.entries(report.statuses)
        .filter(([s]) => Number(s) < 300)
        .reduce((n, [, c]) => n + c, 0);
      expect(successes).toBeGreaterThan(COUNT * 0.05);
    },
  );
});
