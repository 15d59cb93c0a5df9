import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisAnswers } from '../../src/platform/redis.js';
import { runChild, spawnChild } from './children.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';

// A Redis Cluster of the test's own: `masters` redis-server children in cluster mode on spare ports (each with
// its own directory and nodes file, and its bus on a second spare port: Redis 7's cluster-port, so the bus does
// not have to be port + 10000), joined by `redis-cli --cluster create`, each master with `replicas` replicas
// (none by default). `redis-cli` gives the masters equal slot ranges. Only its own pids stop.

export interface PrivateCluster {
  /** "127.0.0.1:p1,127.0.0.1:p2,…", the REDIS_CLUSTER_NODES form. */
  nodes: string;
  ports: number[];
  /** Stops one node at once (SIGKILL, by pid): a master killed this way is failed over to its replica. */
  killNode(port: number): Promise<void>;
  /** The port of the live master serving `slot`, as a live node's CLUSTER SLOTS says. */
  masterOfSlot(slot: number): Promise<number>;
  /** The ports of the live masters. */
  masterPorts(): Promise<number[]>;
  /** Resolves once every live node says cluster_state:ok (after a failover: the replica promoted). */
  whenOk(timeoutMs?: number): Promise<void>;
  /** Stops every node (SIGKILL, by pid) and removes their directories. */
  destroy(): Promise<void>;
}

export async function startPrivateCluster(masters = 3, opts: { replicas?: number } = {}): Promise<PrivateCluster> {
  const replicas = opts.replicas ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'sb-cluster-'));
  const children: ChildProcess[] = [];
  const byPort = new Map<number, ChildProcess>();
  const ports: number[] = [];
  const used: number[] = [];
  const destroy = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
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
        // With replicas, a killed master is failed over after this long (15 s by default).
        ...(replicas > 0 ? ['--cluster-node-timeout', '2000'] : []),
      ];
      const child = spawnChild('redis-server', args, { stdio: 'ignore' });
      children.push(child);
      byPort.set(port, child);
    }
    await Promise.all(
      ports.map((p) => waitUntil(() => redisAnswers(`redis://127.0.0.1:${p}`), 30_000, `cluster node ${p} to answer`)),
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    // Every node must agree the cluster is ok (slots assigned and gossip settled) before clients use it.
    await waitUntil(
      async () => (await Promise.all(ports.map(clusterStateOk))).every(Boolean),
      30_000,
      'cluster_state:ok on every node',
    );
    // A replica that has not synced yet could not take over.
    if (replicas > 0) {
      await waitUntil(
        async () => (await Promise.all(ports.map(replicaInSync))).filter(Boolean).length === masters * replicas,
        30_000,
        'every replica in sync with its master',
      );
    }
  } catch (err) {
    await destroy();
    throw err;
  }
  const live = () => ports.filter((p) => byPort.get(p)!.exitCode === null && byPort.get(p)!.signalCode === null);
  const slots = async () =>
    (await adminCall(live()[0]!, 'CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
  return {
    nodes: ports.map((p) => `127.0.0.1:${p}`).join(','),
    ports,
    killNode: (port) => stopChild(byPort.get(port)!),
    masterOfSlot: async (slot) => (await slots()).find(([first, last]) => slot >= first && slot <= last)![2][1],
    masterPorts: async () => [...new Set((await slots()).map((range) => range[2][1]))],
    whenOk: async (timeoutMs = 20_000) => {
      await waitUntil(
        async () => (await Promise.all(live().map(clusterStateOk))).every(Boolean),
        timeoutMs,
        'cluster_state:ok on every live node',
      );
    },
    destroy,
  };
}

async function twoFreePorts(taken: number[]): Promise<[number, number]> {
  for (;;) {
    const a = await freePort();
    const b = await freePort();
    if (a !== b && !taken.includes(a) && !taken.includes(b)) return [a, b];
  }
}

/** One command to one node, on a connection of its own. */
async function adminCall(port: number, ...args: [string, ...string[]]): Promise<unknown> {
  const admin = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
    return await admin.call(...args);
  } finally {
    admin.disconnect();
  }
}

const clusterStateOk = (port: number): Promise<boolean> =>
  adminCall(port, 'CLUSTER', 'INFO').then(
    (info) => /^cluster_state:ok\b/m.test(String(info)),
    () => false,
  );

const replicaInSync = (port: number): Promise<boolean> =>
  adminCall(port, 'INFO', 'replication').then(
    (info) => /^role:slave\b/m.test(String(info)) && /^master_link_status:up\b/m.test(String(info)),
    () => false,
  );

async function run(cmd: string, args: string[]): Promise<void> {
  const res = await runChild(cmd, args);
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.slice(0, 2).join(' ')} exited ${res.status ?? res.signal}: ${res.stderr.trim()}`);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
