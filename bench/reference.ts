import { spawnSync } from 'node:child_process';
import { readResults } from './results.js';

// `npm run bench:reference`: the figures docs/performance.md quotes, each goal's command in turn (each saves its
// result in bench/results/), then the chart from the sweep. Run it on a machine with nothing else running.

const goals: Array<Record<string, string>> = [
  // 2. p99 commit → arrival at 400/s, three alternating rounds a side.
  {
    BENCH_ONLY: 'webhooks',
    BENCH_SWEEP: 'only',
    BENCH_SWEEP_STEP: '400',
    BENCH_SWEEP_MAX: '400',
    BENCH_SWEEP_ROUNDS: '3',
  },
  // 3. the rate sweep: the highest rate with p99 ≤ 250 ms, each side; the chart is drawn from it.
  { BENCH_ONLY: 'webhooks', BENCH_SWEEP: 'only' },
  // 1. CPU per event at 400/s (then at the floor's highest rate, below).
  { BENCH_ONLY: 'budget', BENCH_BUDGET_RATE: '400', BENCH_BUDGET_S: '8' },
  // 4. (a) the drain against bare BullMQ's; (d) one event to 1,000 subscriptions.
  { BENCH_ONLY: 'webhooks', BENCH_SWEEP: '0' },
  // 5. through one `npm start`.
  { BENCH_ONLY: 'api', BENCH_API_WORKERS: 'auto', BENCH_LATENCY_S: '8' },
];

function bench(env: Record<string, string>): void {
  console.log(
    `\n$ ${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} npm run bench`,
  );
  const run = spawnSync('npm', ['run', 'bench'], { env: { ...process.env, ...env }, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`npm run bench exited with ${run.status}`);
}

for (const env of goals) bench(env);

const sweep = readResults()
  .filter((r) => r.bench === 'sweep' && ((r.figures.sweep_rows as unknown[] | undefined)?.length ?? 0) > 1)
  .at(-1);
const floorRate = (sweep?.figures.sweep_sustained_rate_at_p99_250ms as { floor: number } | undefined)?.floor;
if (floorRate) bench({ BENCH_ONLY: 'budget', BENCH_BUDGET_RATE: String(floorRate), BENCH_BUDGET_S: '6' });

spawnSync('npm', ['run', 'bench:chart'], { stdio: 'inherit' });
