import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { now } from '../platform/clock.ts';
import { createServiceLogger, type Logger } from '../platform/logger.ts';
import { startShutdownClock } from './shutdown-clock.ts';
import { writeBanner, type Banner } from '../platform/startup-banner.ts';
import { childLaunch, type ChildLaunch } from './child-launch.ts';
import { childProcessEnv } from '../platform/config-child-env.ts';

// npm start with its defaults (docs/processes.md): this process loads nothing of the application. A first child
// reads the configuration, finds (or starts) Postgres and Redis and migrates; then one API process and N worker
// processes are started on what it resolved. A child that dies is started again; one that keeps dying waits
// longer each time. Node runs this file as it is (type stripping): its imports stay within node: and the small
// modules above, written with the .ts extension.

export type ChildRole = 'prepare' | 'api' | 'workers';

/** What the first child found: the worker count, the log settings, and what the API and worker processes get. */
export interface PreparedMessage {
  type: 'prepared';
  workers: number;
  log: { level: string; format: 'pretty' | 'json' };
  /** DATABASE_URL and REDIS_URL as resolved, so that no child starts a development fallback of its own. */
  env: Record<string, string>;
  shutdownTimeoutMs: number;
  metricsPort: number | null;
  /** What the first child started (an embedded Postgres, a redis-server): it stays to own them until shutdown. */
  started: { postgres: boolean; redis: boolean };
}

/** What a child sends once it serves (the API) or takes jobs (the workers); the API adds the banner's rows. */
export interface ReadyMessage {
  type: 'ready';
  publicUrl: string | null;
  banner: Banner | null;
}

/** A child that ran this long before dying starts again at once; shorter lives count towards a crash loop. */
const HEALTHY_AFTER_MS = 30_000;
const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 30_000;
/** From this many quick deaths in a row on, each restart is logged as an error: a crash loop. */
const CRASH_LOOP_AFTER = 3;

export class ChildExitError extends Error {}

interface Slot {
  role: ChildRole;
  args: string[];
  /** This slot's own environment on top of the shared one (a worker's METRICS_PORT). */
  env: Record<string, string>;
  proc: ChildProcess | null;
  startedAt: number;
  quickDeaths: number;
  restart: NodeJS.Timeout | null;
}

/** Starts one child and resolves with its first message of `type`; rejects when it exits before sending it. */
function forkChild<M extends { type: string }>(
  launch: ChildLaunch,
  slot: Slot,
  env: NodeJS.ProcessEnv,
  type: M['type'],
): Promise<M> {
  const proc = fork(launch.entry, [slot.role, ...slot.args], {
    execArgv: launch.execArgv,
    env: { ...env, ...slot.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  slot.proc = proc;
  slot.startedAt = now().getTime();
  const message = new Promise<M>((resolve, reject) => {
    proc.on('message', (m: M) => m?.type === type && resolve(m));
    proc.once('exit', (code, signal) =>
      reject(new ChildExitError(`the ${slot.role} process exited (${signal ?? `code ${code}`}) before it was ready`)),
    );
  });
  message.catch(() => undefined);
  return message;
}

const newSlot = (role: ChildRole, args: string[] = [], env: Record<string, string> = {}): Slot => ({
  role,
  args,
  env,
  proc: null,
  startedAt: 0,
  quickDeaths: 0,
  restart: null,
});

const isRunning = (proc: ChildProcess | null): proc is ChildProcess =>
  proc !== null && proc.exitCode === null && proc.signalCode === null;

/** SIGTERM to each running child; one still running at `deadline` is killed. Resolves once all are gone. */
async function stopChildren(procs: ChildProcess[], deadline: Promise<void>, logger: Logger | null): Promise<void> {
  const running = procs.filter(isRunning);
  const exits = running.map((p) => once(p, 'exit'));
  for (const p of running) p.kill('SIGTERM');
  const allGone = Promise.all(exits).then(() => true);
  if (await Promise.race([allGone, deadline.then(() => false)])) return;
  const left = running.filter(isRunning);
  logger?.error({ childPids: left.map((p) => p.pid) }, 'children still running at the shutdown deadline: killed');
  for (const p of left) p.kill('SIGKILL');
  await allGone;
}

/** npm start: prepares through the first child, starts the API and workers, prints the banner, stops on a signal. */
export async function runSupervisor(): Promise<void> {
  const launch = childLaunch();
  const env = childProcessEnv();
  const first = newSlot('prepare');
  let logger: Logger | null = null;
  let stopping = false;
  const slots: Slot[] = [];

  const stopAll = async (deadline: Promise<void>) => {
    stopping = true;
    for (const s of slots) if (s.restart) clearTimeout(s.restart);
    await stopChildren(
      slots.map((s) => s.proc).filter((p) => p !== null),
      deadline,
      logger,
    );
    // The first child owns the development fallbacks: stopped after every process that used them.
    await stopChildren(first.proc ? [first.proc] : [], deadline, logger);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (!logger) {
      // Still preparing: the first child got the same signal from the terminal, or gets it now.
      first.proc?.kill(signal);
      return;
    }
    void shutdown(signal);
  };
  let shutdown: (reason: string) => Promise<void> = async () => undefined;
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  const prepared = await forkChild<PreparedMessage>(launch, first, env, 'prepared');
  logger = createServiceLogger(prepared.log.level, prepared.log.format);
  const log = logger;
  const timeoutMs = prepared.shutdownTimeoutMs;
  shutdown = async (reason) => {
    log.info({ reason, timeoutMs }, 'shutting down: finishing requests and jobs in flight');
    const deadline = startShutdownClock(timeoutMs, log);
    await stopAll(deadline);
    log.info('stopped');
    process.exit(0);
  };
  if (stopping) return shutdown('SIGTERM');

  const stays = prepared.workers === 0 || prepared.started.postgres || prepared.started.redis;
  // WORKERS=0: the first child goes on to run the API, every worker and the scheduler itself.
  const childEnv = childProcessEnv(prepared.env);
  const started = [prepared.started.postgres && 'postgres', prepared.started.redis && 'redis'].filter(Boolean);
  const startedArg = started.join(',') || '-';
  if (prepared.workers > 0) {
    slots.push(newSlot('api', [startedArg]));
    for (let i = 0; i < prepared.workers; i++) {
      const port = prepared.metricsPort === null ? null : prepared.metricsPort + i;
      slots.push(newSlot('workers', [], port === null ? {} : { METRICS_PORT: String(port) }));
    }
  }

  const onExit = (slot: Slot, proc: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping || slot.proc !== proc) return;
    slot.proc = null;
    const lived = now().getTime() - slot.startedAt;
    slot.quickDeaths = lived >= HEALTHY_AFTER_MS ? 1 : slot.quickDeaths + 1;
    const delayMs = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.quickDeaths - 1));
    const facts = { role: slot.role, childPid: proc.pid, code, signal, livedMs: lived, restartInMs: delayMs };
    if (slot.quickDeaths >= CRASH_LOOP_AFTER) {
      log.error(
        { ...facts, deathsInARow: slot.quickDeaths },
        `the ${slot.role} process keeps dying: restarting with backoff`,
      );
    } else {
      log.warn(facts, `the ${slot.role} process exited: restarting it`);
    }
    slot.restart = setTimeout(() => {
      slot.restart = null;
      if (!stopping)
        void spawn(slot).then(
          () => log.info({ role: slot.role, childPid: slot.proc?.pid }, `the ${slot.role} process is back`),
          () => undefined,
        );
    }, delayMs);
  };
  const spawn = (slot: Slot) => {
    const ready = forkChild<ReadyMessage>(launch, slot, childEnv, 'ready');
    const proc = slot.proc!;
    proc.once('exit', (code, signal) => onExit(slot, proc, code, signal));
    return ready;
  };

  let readies: ReadyMessage[];
  try {
    readies =
      prepared.workers > 0
        ? await Promise.all(slots.map(spawn))
        : [await waitForMessage<ReadyMessage>(first.proc!, 'ready', 'the process')];
  } catch (err) {
    stopping = true;
    await stopAll(new Promise((resolve) => setTimeout(resolve, 5000)));
    throw err;
  }
  // The first child stays while it runs everything (WORKERS=0) or owns a development fallback; it is not restarted.
  first.proc?.once('exit', (code, signal) => {
    if (stopping || !stays) return;
    log.error(
      { childPid: first.proc?.pid, code, signal },
      `the ${prepared.workers ? 'services' : 'switchboard'} process exited`,
    );
    void shutdown('a child exited');
  });

  const api = readies.find((r) => r.banner)!;
  const title =
    prepared.workers > 0
      ? describeSlots(slots)
      : `supervisor pid ${process.pid}; api + workers + scheduler pid ${first.proc?.pid}`;
  writeBanner(log, prepared.log.format, `switchboard listening (${title})`, api.banner!);
}

function waitForMessage<M extends { type: string }>(proc: ChildProcess, type: M['type'], who: string): Promise<M> {
  return new Promise<M>((resolve, reject) => {
    proc.on('message', (m: M) => m?.type === type && resolve(m));
    proc.once('exit', (code, signal) =>
      reject(new ChildExitError(`${who} exited (${signal ?? `code ${code}`}) before it was ready`)),
    );
  });
}

/** "supervisor pid 11; api pid 12; workers + scheduler pids 13, 14": what runs where, for the banner. */
function describeSlots(slots: Slot[]): string {
  const pids = (role: ChildRole) => slots.filter((s) => s.role === role).map((s) => s.proc?.pid ?? '(restarting)');
  const workers = pids('workers');
  const plural = workers.length > 1 ? 's' : '';
  return `supervisor pid ${process.pid}; api pid ${pids('api')[0]}; workers + scheduler pid${plural} ${workers.join(', ')}`;
}
