import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { RUN_MARK } from './leftovers.js';

// The one way a test starts a process. Each child is detached into a process group of its own, so that ending it
// ends whatever it started (a shell's commands, npm's node, a broker's Erlang VM), and never gets the signals meant
// for the test runner; it carries the run's mark in its environment (RUN_MARK, set for the workers by
// test/helpers/global-setup.ts), by which test/helpers/leftovers.ts finds it after a crash; and it is recorded here
// until `endChildren` (each file's afterAll, test/helpers/file-cleanup.ts) ends its group. A test that ends a child
// itself still may: what is gone by then costs nothing.

/** The groups this worker process started, by their leader's pid (module state: one registry per worker). */
const groups = new Set<number>();

/** `env` (default: this process's) with the run's mark, so that every descendant carries it too. */
export function markedEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const mark = process.env[RUN_MARK];
  return mark ? { ...env, [RUN_MARK]: mark } : env;
}

/** `spawn`, detached into a group of its own, marked, recorded. */
export function spawnChild(command: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...opts, env: markedEnv(opts.env), detached: true });
  if (child.pid) groups.add(child.pid);
  return child;
}

/** Records a group that a child started on its own (a server a control program daemonizes), by its leader. */
export function adoptGroup(pid: number): void {
  groups.add(pid);
}

export interface ChildResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end as `spawnChild` starts it, `input` written to its stdin. `capMs` only bounds a hang: at
 * that point its group is killed and the result says SIGKILL.
 */
export async function runChild(
  command: string,
  args: string[],
  opts: SpawnOptions & { input?: string; capMs?: number } = {},
): Promise<ChildResult> {
  const { input = '', capMs = 120_000, ...spawnOpts } = opts;
  const child = spawnChild(command, args, { ...spawnOpts, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // A command that ends without reading its input (tar, node -e) closes the pipe first: EPIPE is no failure of it.
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(input);
  const cap = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), capMs);
  try {
    // 'close', not 'exit': at 'exit' the pipes may still hold output not yet read here.
    const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, sig) => resolve([code, sig]));
    });
    return { status, signal, stdout, stderr };
  } finally {
    clearTimeout(cap);
    await endGroup(child.pid);
  }
}

/** Sends `signal` to a whole group; false when none of it is left. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (!pid) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is left (a zombie leader counts until its parent reaps it). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILLs a child's whole group and resolves once none of it is left (the leader reaped by its 'exit' here, its
 * descendants by init), or after `capMs`, which only bounds a process stuck in the kernel.
 */
export async function endChild(child: ChildProcess, capMs = 30_000): Promise<void> {
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, 'SIGKILL');
  await exited;
  await endGroup(child.pid, capMs);
}

async function endGroup(pid: number | undefined, capMs = 30_000): Promise<void> {
  if (!pid) return;
  groups.delete(pid);
  const deadline = Date.now() + capMs;
  while (groupAlive(pid) && Date.now() < deadline) {
    signalGroup(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Ends every group this process started that is still there: what a test left running, ended or failed. */
export async function endChildren(): Promise<void> {
  await Promise.all([...groups].map((pid) => endGroup(pid)));
}
