import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The processes whose going away ends a `listen` session (docs/cli.md#listen). Its parent, always; started through
// npm (`npx switchboard`, `npm exec`, an npm script), also every process up to npm itself, because npm runs the
// command under `sh -c`: a SIGKILL of npx leaves that shell waiting on the listener, so the listener's parent
// never changes and a watch on it alone would keep a stream open that nobody watches.

const NPM = /(^|[/\s])(npm|npx)(-cli\.js)?(\s|$)/;
const MAX_DEPTH = 6;

interface ProcessInfo {
  ppid: number;
  args: string;
}

function infoOf(pid: number): ProcessInfo | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; the command may hold spaces and parentheses, so read after
    // the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return { ppid, args };
  } catch {
    // No /proc (macOS): ps answers the same question.
    try {
      const out = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      const m = /^(\d+)\s+(.*)$/s.exec(out);
      return m ? { ppid: Number(m[1]), args: m[2]! } : null;
    } catch {
      return null;
    }
  }
}

/** The pids to watch: the parent, and when npm launched this process, each ancestor up to and including npm. */
export function launcherPids(launchedByNpm: boolean): number[] {
  const chain = [process.ppid];
  if (!launchedByNpm) return chain;
  for (let pid = process.ppid; chain.length <= MAX_DEPTH;) {
    const info = infoOf(pid);
    if (!info) break;
    if (NPM.test(info.args)) return chain;
    if (info.ppid <= 1) break;
    chain.push(info.ppid);
    pid = info.ppid;
  }
  // No npm found above (a launcher this cannot recognise): the parent alone, as without npm.
  return [process.ppid];
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Calls `onGone` once when a launcher process is gone (or this process was handed to another parent). */
export function watchLaunchers(pids: number[], onGone: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent || !pids.every(isAlive)) {
      clearInterval(timer);
      onGone();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
