import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { now } from '../platform/clock.js';
import { childProcessEnv, type Config } from '../platform/config.js';
import { StartupError } from '../platform/local-services.js';
import type { Logger } from '../platform/logger.js';

// npm start with WORKERS ≠ 0 (docs/processes.md): this process runs migrations and supervises one API process and
// N worker processes. A child that dies is started again; one that keeps dying waits longer each time.

export type ChildRole = 'api' | 'workers';

export const CHILD_ROLES: readonly ChildRole[] = ['api', 'workers'];

/** The child entry point next to this file's folder, as .ts under tsx and .js in a compiled build. */
const CHILD_ENTRY = fileURLToPath(new URL(`../supervised${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/** A child that ran this long before dying starts again at once; shorter lives count towards a crash loop. */
const HEALTHY_AFTER_MS = 30_000;
const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 30_000;
/** From this many quick deaths in a row on, each restart is logged as an error: a crash loop. */
const CRASH_LOOP_AFTER = 3;

/** What a child sends its parent once it serves (the API) or takes jobs (the workers). */
export interface ReadyMessage {
  type: 'ready';
  publicUrl: string | null;
}

/** WORKERS=auto: one worker process per core the API process leaves free, at least one. */
export function resolveWorkerCount(workers: Config['workers']): number {
  return workers === 'auto' ? Math.max(1, availableParallelism() - 1) : workers;
}

interface Slot {
  role: ChildRole;
  /** This slot's own environment on top of the shared one (a worker's METRICS_PORT). */
  env: Record<string, string>;
  proc: ChildProcess | null;
  startedAt: number;
  quickDeaths: number;
  restart: NodeJS.Timeout | null;
}

export interface Supervisor {
  /** The origin clients reach the API at, as the API process reported it. */
  publicUrl: string;
  /** "api pid 11; workers + scheduler pids 12, 13": what runs where, for the banner. */
  describe(): string;
  /** SIGTERM to every child; a child still running at `deadline` is killed. */
  stop(deadline: Promise<void>): Promise<void>;
}

/**
 * Starts the children and resolves once every one is ready. The children get `env` on top of this process's
 * environment: the database and Redis this process resolved, so that none starts a development fallback.
 */
export async function startSupervisor(opts: {
  logger: Logger;
  workers: number;
  env: Record<string, string>;
  /** Worker k (from 0) serves /metrics and /healthz on this port + k: the ports must not collide. */
  metricsPort: number | null;
}): Promise<Supervisor> {
  const { logger } = opts;
  const env = childProcessEnv(opts.env);
  const roles: ChildRole[] = ['api', ...Array.from({ length: opts.workers }, () => 'workers' as const)];
  const slotEnv = (role: ChildRole, i: number): Record<string, string> =>
    role === 'workers' && opts.metricsPort !== null ? { METRICS_PORT: `${opts.metricsPort + i - 1}` } : {};
  const slots: Slot[] = roles.map((role, i) => ({
    role,
    env: slotEnv(role, i),
    proc: null,
    startedAt: 0,
    quickDeaths: 0,
    restart: null,
  }));
  let stopping = false;

  const spawnChild = (slot: Slot): Promise<ReadyMessage> => {
    // fork: process.execPath with process.execArgv (the tsx loader under tsx), and an IPC channel for "ready".
    const proc = fork(CHILD_ENTRY, [slot.role], {
      execPath: process.execPath,
      execArgv: process.execArgv,
      env: { ...env, ...slot.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    slot.proc = proc;
    slot.startedAt = now().getTime();
    const ready = new Promise<ReadyMessage>((resolve, reject) => {
      proc.on('message', (m: ReadyMessage) => m?.type === 'ready' && resolve(m));
      proc.once('exit', (code, signal) =>
        reject(
          new StartupError(
            `the ${slot.role} process exited (${signal ?? `code ${code}`}) before it was ready; its error is above`,
          ),
        ),
      );
    });
    proc.once('exit', (code, signal) => onExit(slot, proc, code, signal));
    ready.catch(() => undefined);
    return ready;
  };

  const onExit = (slot: Slot, proc: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping || slot.proc !== proc) return;
    slot.proc = null;
    const lived = now().getTime() - slot.startedAt;
    slot.quickDeaths = lived >= HEALTHY_AFTER_MS ? 1 : slot.quickDeaths + 1;
    const delayMs = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.quickDeaths - 1));
    const facts = { role: slot.role, childPid: proc.pid, code, signal, livedMs: lived, restartInMs: delayMs };
    if (slot.quickDeaths >= CRASH_LOOP_AFTER) {
      const message = `the ${slot.role} process keeps dying: restarting with backoff`;
      logger.error({ ...facts, deathsInARow: slot.quickDeaths }, message);
    } else {
      logger.warn(facts, `the ${slot.role} process exited: restarting it`);
    }
    slot.restart = setTimeout(() => {
      slot.restart = null;
      if (stopping) return;
      spawnChild(slot).then(
        () => logger.info({ role: slot.role, childPid: slot.proc?.pid }, `the ${slot.role} process is back`),
        () => undefined, // its exit is handled (and the next restart scheduled) by onExit
      );
    }, delayMs);
  };

  const stopAll = async (deadline: Promise<void>) => {
    stopping = true;
    const running = slots.filter((s) => s.proc && s.proc.exitCode === null && s.proc.signalCode === null);
    for (const s of slots) if (s.restart) clearTimeout(s.restart);
    const exits = running.map((s) => new Promise<void>((resolve) => s.proc!.once('exit', () => resolve())));
    for (const s of running) s.proc!.kill('SIGTERM');
    const allGone = Promise.all(exits).then(() => true);
    if (!(await Promise.race([allGone, deadline.then(() => false)]))) {
      const left = running.filter((s) => s.proc!.exitCode === null && s.proc!.signalCode === null);
      const childPids = left.map((s) => s.proc!.pid);
      logger.error({ childPids }, 'children still running at the shutdown deadline: killed');
      for (const s of left) s.proc!.kill('SIGKILL');
      await allGone;
    }
  };

  let readies: ReadyMessage[];
  try {
    readies = await Promise.all(slots.map(spawnChild));
  } catch (err) {
    await stopAll(new Promise((resolve) => setTimeout(resolve, 5000)));
    throw err;
  }

  return {
    publicUrl: readies[0]!.publicUrl!,
    describe: () => {
      const pids = (role: ChildRole) => slots.filter((s) => s.role === role).map((s) => s.proc?.pid ?? '(restarting)');
      const workers = pids('workers');
      const plural = workers.length > 1 ? 's' : '';
      const api = `api pid ${pids('api')[0]}`;
      return `supervisor pid ${process.pid}; ${api}; workers + scheduler pid${plural} ${workers.join(', ')}`;
    },
    stop: stopAll,
  };
}
