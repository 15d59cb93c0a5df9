import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signalGroup, spawnChild } from './children.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';

// Brokers of the test's own on spare ports (the shared ones on 5672/4222 are never used): a RabbitMQ node and a
// NATS server with JetStream, each with its data under a temporary directory, each in a process group of its own
// (test/helpers/children.ts), stopped by their own pids. Under
// CI=true a missing binary fails the test; elsewhere `brokerMissing` lets a file say why it cannot run.

const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const RABBITMQCTL = '/usr/lib/rabbitmq/bin/rabbitmqctl';
const NATS_SERVER = 'nats-server';

/** Why a broker cannot be started here, or null; throws under CI=true, where a missing broker fails the run. */
export function brokerMissing(kind: 'rabbitmq' | 'nats'): string | null {
  const found = kind === 'rabbitmq' ? existsSync(RABBITMQ_SERVER) : spawnSync(NATS_SERVER, ['--version']).status === 0;
  if (found) return null;
  const why = `${kind} binary not installed`;
  if (process.env.CI === 'true') throw new Error(`${why}; CI must have it`);
  return why;
}

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = tcpConnect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

export interface Broker {
  /** The URL with credentials, as a subscription names it. */
  url: string;
  user: string;
  password: string;
  port: number;
  /** Stops it (its own pid) and waits for it to exit; its data stays for `start`. */
  stop(): Promise<void>;
  /** SIGKILL, no goodbye to its clients (its process group, by pid); its data stays for `start`. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing is answered, as a wedged broker; `thaw` resumes it. */
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

function exited(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

/** A RabbitMQ node: unique node name, own ports, data, logs and cookie; no plugins (no management listener). */
export async function startRabbitmq(): Promise<Broker> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-rabbitmq-'));
  const [port, distPort] = [await freePort(), await freePort()];
  const node = `sbtest-${randomBytes(4).toString('hex')}@localhost`;
  const user = 'sb-publisher';
  const password = `pw-${randomBytes(12).toString('hex')}`;
  writeFileSync(join(dir, '.erlang.cookie'), randomBytes(20).toString('hex'));
  chmodSync(join(dir, '.erlang.cookie'), 0o400);
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
  writeFileSync(
    join(dir, 'rabbitmq.conf'),
    [`default_user = ${user}`, `default_pass = ${password}`, 'loopback_users = none', 'log.console = false'].join(
      '\n',
    ) + '\n',
  );
  const env = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_PID_FILE: join(dir, 'rabbit.pid'),
    ERL_EPMD_ADDRESS: '127.0.0.1',
  };
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawnChild(RABBITMQ_SERVER, [], { env, stdio: 'ignore' });
    await waitUntil(() => portAnswers(port), 90_000, `RabbitMQ node ${node} to listen on ${port}`, 200);
  };
  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    // The node's own stop; then its process group (the wrapper shell and beam), by its pid, if it lingers.
    spawnSync(RABBITMQCTL, ['-n', node, 'stop'], { env, stdio: 'ignore', timeout: 30_000 });
    const gone = exited(proc);
    const timer = setTimeout(() => signalGroup(proc.pid, 'SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  };
  const signal = (sig: NodeJS.Signals) => signalGroup(child?.pid, sig);
  await start();
  return {
    url: `amqp://${user}:${password}@127.0.0.1:${port}/%2F`,
    user,
    password,
    port,
    start,
    stop,
    kill: async () => {
      const gone = exited(child);
      signal('SIGKILL');
      await gone;
    },
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    destroy: async () => {
      signal('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A nats-server with JetStream, its store under a temporary directory. */
export async function startNats(): Promise<Broker> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-nats-'));
  const port = await freePort();
  const user = 'sb-publisher';
  const password = `pw-${randomBytes(12).toString('hex')}`;
  writeFileSync(
    join(dir, 'nats.conf'),
    `listen: 127.0.0.1:${port}\njetstream { store_dir: "${join(dir, 'js')}" }\n` +
      `authorization { users = [ { user: "${user}", password: "${password}" } ] }\n`,
  );
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawnChild(NATS_SERVER, ['-c', join(dir, 'nats.conf')], { stdio: 'ignore' });
    await waitUntil(() => portAnswers(port), 30_000, `nats-server to listen on ${port}`, 100);
  };
  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const gone = exited(proc);
    proc.kill('SIGTERM');
    await gone;
  };
  await start();
  return {
    url: `nats://${user}:${password}@127.0.0.1:${port}`,
    user,
    password,
    port,
    start,
    stop,
    kill: async () => {
      const gone = exited(child);
      child?.kill('SIGKILL');
      await gone;
    },
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    destroy: async () => {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
