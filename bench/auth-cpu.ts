import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import type { SessionPrincipal } from '../src/auth/principal.js';
import { signup } from '../src/accounts/accounts.service.js';
import { createApp } from '../src/http/app.js';
import { mintAgentKey } from '../src/keys/keys.service.js';
import { closeDeps, createDeps } from '../src/app/runtime.js';
import { loadConfig } from '../src/platform/config.js';
import { createDb, ensureDatabase, migrateLatest } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';
import { newId } from '../src/platform/ids.js';
import { createQueues } from '../src/platform/queues.js';
import { createApiRedis } from '../src/platform/redis.js';

// CPU per authenticated request, for a whole-process measurement from outside (user + system time of this
// process): `setup` makes a migrated database with a per-agent key carrying three named rate limits (limits no
// run reaches) and a monthly refilling spend cap, and writes the key to AUTH_CPU_STATE; a plain run then serves
// AUTH_CPU_REQUESTS authenticated GET /v1/agents/:id to an in-process autocannon and exits. Run against another
// checkout's sources with its own database, the two runs' CPU differ by what their authentication costs.
//   AUTH_CPU_DB=postgres://…/db AUTH_CPU_STATE=/tmp/x.json npx tsx bench/auth-cpu.ts setup
//   AUTH_CPU_DB=… AUTH_CPU_STATE=… npx tsx bench/auth-cpu.ts

const databaseUrl = process.env.AUTH_CPU_DB ?? 'postgres://postgres@127.0.0.1:5432/sb_auth_cpu';
const statePath = process.env.AUTH_CPU_STATE ?? '/tmp/sb-auth-cpu.json';
const requests = Number(process.env.AUTH_CPU_REQUESTS ?? 20_000);
const prefix = `sb-auth-cpu-${new URL(databaseUrl).pathname.slice(1)}`;

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: databaseUrl,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  BULLMQ_PREFIX: prefix,
});

async function main() {
  const setup = process.argv[2] === 'setup';
  if (setup) await ensureDatabase(databaseUrl);
  const db = createDb(databaseUrl, { pool: { min: 2, max: 10 } });
  if (setup) await migrateLatest(db);
  const redis = createApiRedis(config.redis.url);
  const queues = createQueues(redis, config.bullmqPrefix, () => undefined, config.webhooks.shards);
  const deps = createDeps({ config, db, redis, queues, logger: createLogger('silent') });
  try {
    if (setup) {
      const { account, user } = await signup(deps, {
        accountName: 'Bench',
        email: `bench-${newId('usr')}@example.com`,
        password: 'bench password 123',
      });
      const agentId = newId('agt');
      await db('agents').insert({ id: agentId, account_id: account.id, name: 'Bench', config: '{}' });
      const owner: SessionPrincipal = {
        type: 'session',
        accountId: account.id,
        userId: user.id,
        sessionId: 'bench',
        role: 'owner',
      };
      const day = 24 * 3600_000;
      // A checkout without refills or named limits ignores the fields its service does not read.
      const input = {
        name: 'bench',
        spendCapCredits: 1_000_000,
        spendCapInterval: 'monthly' as const,
        spendCapRefillDay: 1,
        rateLimits: [
          { name: 'second', limit: 1_000_000_000, durationMs: 1000 },
          { name: 'minute', limit: 1_000_000_000, durationMs: 60_000 },
          { name: 'day', limit: 1_000_000_000, durationMs: day },
        ],
      };
      const { secret } = await mintAgentKey(deps, { principal: owner, ip: '127.0.0.1' }, agentId, input);
      writeFileSync(statePath, JSON.stringify({ secret, agentId }));
      return;
    }
    const { secret, agentId } = JSON.parse(readFileSync(statePath, 'utf8')) as { secret: string; agentId: string };
    const { app } = createApp(deps);
    const server = createServer(app.callback());
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/v1/agents/${agentId}`,
      headers: { authorization: `Bearer ${secret}` },
      connections: 20,
      amount: requests,
    });
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    if (result.non2xx || result.errors) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  } finally {
    await closeDeps(deps);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
