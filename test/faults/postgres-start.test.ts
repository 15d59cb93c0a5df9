import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { adminQuery } from '../../src/platform/db.js';
import { ensureLocalServices, StartupError } from '../../src/platform/local-services.js';
import { createLogger } from '../../src/platform/logger.js';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { runChild } from '../helpers/children.js';

// `npm start` against a Postgres that answers and refuses: the one line it prints says what Postgres answered (a
// wrong password, a missing role, a missing database the role may not create), not that nothing answered. With
// no DATABASE_URL, a server at the default address that refuses the login is reported, never passed over for
// the embedded Postgres (that fallback is for an address where nothing listens). The server is the test's own,
// with password logins for every role but postgres.

const ROLE = 'sb_start_role';
const PASSWORD = 'right-password';

let pg: PrivatePostgres;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-pg-start-'));
  chmodSync(dir, 0o755);
  const hba = join(dir, 'pg_hba.conf');
  writeFileSync(
    hba,
    [
      'local all all trust',
      'host all postgres 127.0.0.1/32 trust',
      // A role missing with trust: Postgres says so (with a password method it hides it behind "authentication").
      'host all sb_ghost 127.0.0.1/32 trust',
      'host all all 127.0.0.1/32 scram-sha-256',
      '',
    ].join('\n'),
  );
  chmodSync(hba, 0o644);
  pg = await startPrivatePostgres({ hba_file: hba, password_encryption: 'scram-sha-256' });
  await adminQuery(pg.urlFor('postgres'), `CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}'`);
}, 300_000);

afterAll(() => {
  pg?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const urlAs = (user: string, password: string | null, database: string) => {
  const url = new URL(pg.urlFor(database));
  url.username = user;
  if (password) url.password = password;
  return url.toString();
};

/** `npm start` (node src/main.ts) with DATABASE_URL; its exit status and what it printed to stderr. */
async function npmStart(databaseUrl: string) {
  const res = await runChild(process.execPath, ['src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_URL: 'redis://127.0.0.1:6379',
      PORT: '0',
      LOG_FORMAT: 'json',
    },
  });
  return { status: res.status, stderr: res.stderr.trim(), stdout: res.stdout };
}

describe('npm start with a DATABASE_URL that Postgres refuses', () => {
  it('a wrong password: one line with what Postgres answered', async () => {
    const res = await npmStart(urlAs(ROLE, 'wrong-password', 'postgres'));
    expect(res.status).toBe(1);
    expect(res.stderr.split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^switchboard: Postgres at DATABASE_URL \(postgres:\/\/sb_start_role:\*\*\*@/);
    expect(res.stderr).toContain(`refused the login: password authentication failed for user "${ROLE}"`);
    expect(res.stderr).not.toContain('wrong-password');
  }, 300_000);

  it('a role that does not exist: one line that says so', async () => {
    const res = await npmStart(urlAs('sb_ghost', null, 'postgres'));
    expect(res.status).toBe(1);
    expect(res.stderr.split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('refused the login: role "sb_ghost" does not exist');
  }, 300_000);

  it('a database that does not exist, which the role may not create: one line that says so', async () => {
    const res = await npmStart(urlAs(ROLE, PASSWORD, 'sb_no_such_db'));
    expect(res.status).toBe(1);
    expect(res.stderr.split('\n')).toHaveLength(1);
    expect(res.stderr).toContain(`database "sb_no_such_db" does not exist, and role "${ROLE}" may not create it`);
  }, 300_000);
});

describe('no DATABASE_URL: a server at the default address that refuses the login', () => {
  it('is reported with its answer, and no embedded Postgres is started in its place', async () => {
    const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir: join(dir, 'data') });
    // The configuration as with DATABASE_URL unset, its default address pointed at this test's server.
    const config = { ...base, database: { url: urlAs(ROLE, 'wrong-password', 'switchboard'), explicit: false } };
    const refused = await ensureLocalServices(config, createLogger('silent')).then(
      async (local) => {
        await local.stop();
        return null;
      },
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toContain('DATABASE_URL is not set');
    expect((refused as Error).message).toContain(`password authentication failed for user "${ROLE}"`);
  }, 300_000);
});
