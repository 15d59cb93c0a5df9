import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisAnswers } from '../../src/platform/redis.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';

// A Redis Cluster of the test's own: `masters` redis-server children in cluster mode on spare ports (each with
// its own directory and nodes file, and its bus on a second spare port: Redis 7's cluster-port, so the bus does
// not have to be port + 10000), joined by `redis-cli --cluster create` with no replicas. Only its own pids stop.

export interface PrivateCluster {
  /** "127.0.0.1:p1,127.0.0.1:p2,…", the REDIS_CLUSTER_NODES form. */
  nodes: string;
  ports: number[];
  /** Stops every node (SIGKILL, by pid) and removes their directories. */
  destroy(): Promise<void>;
}

export async function startPrivateCluster(masters = 3): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const used: number[] = [];
  const destroy = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const [port, busPort] = await twoFreePorts(used);
      used.push(port, busPort);
      ports.push(port);
      const args = [
        '--port',
        String(port),
        '--cluster-port',
        String(busPort),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ];
      children.push(spawn('redis-server', args, { stdio: 'ignore' }));
    }
    await Promise.all(
      ports.map((p) => waitUntil(() => redisAnswers(`redis://127.0.0.1:${p}`), 10_000, `cluster node ${p} to answer`)),
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    // Every node must agree the cluster is ok (slots assigned and gossip settled) before clients use it.
    await waitUntil(
      async () => (await Promise.all(ports.map(clusterStateOk))).every(Boolean),
      15_000,
      'cluster_state:ok on every node',
    );
  } catch (err) {
    await destroy();
    throw err;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), ports, destroy };
}

async function twoFreePorts(taken: number[]): Promise<[number, number]> {
  for (;;) {
    const a = await freePort();
    const b = await freePort();
    if (a !== b && !taken.includes(a) && !taken.includes(b)) return [a, b];
  }
}

async function clusterStateOk(port: number): Promise<boolean> {
  const admin = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
    return /^cluster_state:ok\b/m.test(String(await admin.call('CLUSTER', 'INFO')));
  } catch {
    return false;
  } finally {
    admin.disconnect();
  }
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${cmd} ${args.slice(0, 2).join(' ')} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
