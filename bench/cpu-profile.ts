import { Session } from 'node:inspector/promises';

// CPU profiles of the webhook budget (bench/webhook-budget.bench.ts): V8's sampling profiler, started and stopped
// around the measured round only, and its samples summed per part of the pipeline. A sample counts for the part of
// the first frame on its stack (leaf to root) that names one, so the pg driver's parsing of a row is "pg", and a
// frame of our own code counts only where no library is under it, and node's own frames only where nothing else
// is on the stack.

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

const PARTS: Array<[string, RegExp]> = [
  ['idle', /^\(idle\)$/],
  // The profiler's own calls (starting, stopping, serializing the profile): the bench's work, left out like idle.
  ['profiler', /^node:inspector$/],
  ['gc', /^\(garbage collector\)$/],
  ['receiver (bench)', /test\/helpers\/receiver|bench\/bare-worker/],
  ['undici POST', /node_modules\/undici\/|internal\/deps\/undici/],
  ['bullmq', /node_modules\/bullmq\//],
  ['ioredis', /node_modules\/(ioredis|@ioredis|redis-parser)\//],
  ['knex', /node_modules\/knex\//],
  ['pg driver', /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-array|postgres-date)\//],
  ['sign + seal', /src\/webhooks\/signature|src\/platform\/crypto/],
  ['zod', /node_modules\/zod\//],
  ['pino', /node_modules\/pino/],
  ['coalescer', /src\/platform\/coalescer/],
  ['service code', /\/(src|workers|bench)\//],
  ['node internals', /^node:|^internal\//],
];

const partOf = (frame: { functionName: string; url: string }): string | undefined => {
  for (const [name, re] of PARTS) if (re.test(frame.url) || re.test(frame.functionName)) return name;
  return undefined;
};

/** Milliseconds of samples per part (idle left out), and the total. */
export function summarizeProfile(profile: CpuProfile): { totalMs: number; parts: Record<string, number> } {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const cache = new Map<number, string>();
  const classify = (id: number): string => {
    const known = cache.get(id);
    if (known) return known;
    // The nearest library or file of ours; node's own frames only when nothing else is on the stack.
    let part: string | undefined;
    let internal = false;
    for (let at: number | undefined = id; at !== undefined && !part; at = parent.get(at)) {
      const found = partOf(byId.get(at)!.callFrame);
      if (found === 'node internals') internal = true;
      else part = found;
    }
    const name = part ?? (internal ? 'node internals' : 'other (V8, native)');
    cache.set(id, name);
    return name;
  };
  const parts: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const part = classify(id);
    parts[part] = (parts[part] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  delete parts.idle;
  delete parts.profiler;
  const totalMs = Object.values(parts).reduce((a, b) => a + b, 0);
  return { totalMs, parts };
}

/** Profiles this process while `work` runs. */
export async function profileWhile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    return { result, profile };
  } finally {
    session.disconnect();
  }
}
