import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { startReceiver } from '../test/helpers/receiver.js';
import { freePort } from '../test/helpers/ports.js';
import { waitUntil } from '../test/helpers/wait.js';
import type { Benchmark } from './run.js';
import { pacedWhile, serviceEnv } from './webhook-helpers.js';

// Memory at rest (docs/processes.md#memory): `npm start` as a person runs it, every process under npm with its
// resident set once the banner is out and the service idles, then again after a minute of POST /v1/contacts at
// 300/s, each delivered to a receiver here. `BENCH_ONLY=footprint npm run bench`; BENCH_FOOTPRINT_S and
// BENCH_FOOTPRINT_RATE change the minute and the rate.

const SECONDS = Number(process.env.BENCH_FOOTPRINT_S ?? 60);
const RATE = Number(process.env.BENCH_FOOTPRINT_RATE ?? 300);
/** How long the service idles after its banner before the first reading. */
const SETTLE_MS = 10_000;

const statusOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
};

/** A process and its descendants, each with its name and resident set in MB (Linux /proc). */
function treeRss(pid: number): Array<{ pid: number; name: string; rssMb: number }> {
  const status = statusOf(pid);
  if (!status) return [];
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const name = [cmd[0]?.split('/').pop(), ...cmd.slice(1).map((a) => a.split('/').pop())].join(' ').slice(0, 60);
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // gone between the two reads
  }
  return [{ pid, name, rssMb: Math.round(kb / 1024) }, ...children.flatMap(treeRss)];
}

const reading = (root: number) => {
  const procs = treeRss(root);
  return { totalMb: procs.reduce((n, p) => n + p.rssMb, 0), processes: procs.map((p) => `${p.rssMb} MB ${p.name}`) };
};

export const footprintBenchmark: Benchmark = {
  id: 'footprint',
  name: 'footprint: RSS per process of npm start at rest and after a minute at 300 events/s',
  async run(env) {
    const bench = await env.createDeps();
    const receiver = await startReceiver();
    const port = await freePort();
    const proc = spawn('npm', ['start'], {
      env: serviceEnv(bench.deps.config, { NODE_ENV: 'production', LOG_FORMAT: 'json', PORT: String(port) }),
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group, signalled whole as a terminal's Ctrl-C does: npm's shell does not pass SIGTERM on.
      detached: true,
    });
    const orphan = () => process.kill(-proc.pid!, 'SIGKILL');
    process.once('exit', orphan);
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 64 });
    try {
      await waitUntil(
        () => {
          if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}`);
          return out.includes('switchboard listening');
        },
        180_000,
        'npm start to listen',
      );
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const atRest = reading(proc.pid!);

      const call = async (path: string, body: unknown, token?: string) => {
        const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        const headers = { 'content-type': 'application/json', ...auth };
        const res = await pool.request({ path, method: 'POST', body: JSON.stringify(body), headers });
        const json = (await res.body.json()) as { session?: { token: string } };
        if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
        return json;
      };
      const email = `footprint-${Date.now()}@example.com`;
      const signup = await call('/v1/auth/signup', { accountName: 'Bench', email, password: 'correct horse battery' });
      const token = signup.session!.token;
      await call('/v1/webhooks', { url: `${receiver.url}/f`, events: ['contact.created'] }, token);
      const until = performance.now() + SECONDS * 1000;
      let failed = 0;
      const sent = await pacedWhile(
        RATE,
        0,
        () => performance.now() < until,
        (n) => call('/v1/contacts', { name: `C ${n}`, email: `c${n}@example.com` }, token).catch(() => failed++),
      );
      const underLoad = reading(proc.pid!);
      return {
        atRestTotalMb: atRest.totalMb,
        atRest: atRest.processes,
        [`after${SECONDS}sAt${RATE}PerSTotalMb`]: underLoad.totalMb,
        [`after${SECONDS}sAt${RATE}PerS`]: underLoad.processes,
        requests: { sent, failed, delivered: receiver.received.length },
      };
    } finally {
      await pool.close();
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      process.kill(-proc.pid!, 'SIGTERM');
      await exited;
      process.off('exit', orphan);
      await receiver.close();
      await bench.close();
    }
  },
};
