import { readdirSync, readFileSync } from 'node:fs';

// Processes as Linux's /proc shows them, for tests of what a wrapper (npx, sh -c) leaves running. A test that needs
// them fails where there is no /proc rather than skipping.

interface Stat {
  state: string;
  ppid: number;
  pgid: number;
}

function statOf(pid: number): Stat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid), pgid: Number(pgid) };
  } catch {
    return null;
  }
}

/** Every process below `pid` (children, their children …), as pids. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) parents.set(Number(name), stat.ppid);
  }
  const found: number[] = [];
  const below = (p: number) => {
    for (const [child, parent] of parents) {
      if (parent !== p || found.includes(child)) continue;
      found.push(child);
      below(child);
    }
  };
  below(pid);
  return found;
}

/** Whether `pid` still runs: a zombie (ended, not yet reaped) does not. */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== null && stat.state !== 'Z';
}

/**
 * Whether any process of group `pgid` still runs. A zombie does not: a process killed whose parent is gone waits to
 * be reaped by init, and while it waits a signal to its group still finds it.
 */
export function groupRunning(pgid: number): boolean {
  return readdirSync('/proc').some((name) => {
    if (!/^\d+$/.test(name)) return false;
    const stat = statOf(Number(name));
    return stat !== null && stat.pgid === pgid && stat.state !== 'Z';
  });
}
