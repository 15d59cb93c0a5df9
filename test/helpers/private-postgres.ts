import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect } from '../../src/platform/db.js';
import { adoptGroup } from './children.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';

// A Postgres cluster of the test's own, made with the server binaries of the installed PostgreSQL, on a spare
// port, so a fault test can really stop and start a server without touching the shared one. initdb and pg_ctl
// refuse to run as root, so as root they run as the `postgres` OS user. pg_ctl starts the server in a session and
// process group of its own, which is recorded as a test's child is (test/helpers/children.ts).

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  urlFor(database: string): string;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): Promise<void>;
  destroy(): void;
}

const serverSettings = (s: Record<string, string>) =>
  Object.entries(s)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');

const bindir = () => execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();

function asServerUser(command: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const res = root
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${command} failed: ${res.stderr || res.stdout}`);
}

/** `settings`: server settings on top of the defaults (fsync off), e.g. a preloaded library for a benchmark. */
export async function startPrivatePostgres(settings: Record<string, string> = {}): Promise<PrivatePostgres> {
  const bin = bindir();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sb-pg-'));
  // The server user must own its data directory (and reach it).
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  asServerUser(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const start = async () => {
    asServerUser(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} ${serverSettings({ listen_addresses: '127.0.0.1', fsync: 'off', ...settings })}`,
      'start',
    ]);
    adoptGroup(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]));
    await waitUntil(() => canConnect(`${base}/postgres`), 60_000, 'the private Postgres to answer');
  };
  await start();
  return {
    urlFor: (database) => `${base}/${database}`,
    stop: (mode = 'immediate') => asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']),
    start,
    destroy: () => {
      try {
        asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
