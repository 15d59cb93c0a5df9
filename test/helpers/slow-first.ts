import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order vitest hands files to its workers: the files below first, longest first, then the rest as vitest
// orders them (by their last durations where it has them, which a fresh checkout does not, else largest first).
// With two workers the run ends when the last file does: a long file started last runs alone at the end, so each
// file that takes long, in a fresh checkout too, is named here.

const SLOW_FIRST = [
  'test/faults/supervisor.test.ts',
  'test/integration/query-plans.test.ts',
  'test/integration/build.test.ts',
  'test/integration/package-tarballs.test.ts',
  'test/integration/idle-scans.test.ts',
  'test/faults/broker-destinations.test.ts',
  'test/faults/ordered-delivery.test.ts',
  'test/integration/destination-kinds.test.ts',
  'test/integration/backlog-plans.test.ts',
  'test/integration/quickstart.test.ts',
  'test/fuzz/fuzz.test.ts',
  'test/integration/fast-fill-scans.test.ts',
  'test/integration/first-run.test.ts',
  'test/faults/worker-kill.test.ts',
  'test/integration/tracing.test.ts',
  'test/integration/test-leftovers.test.ts',
  'test/faults/multi-process.test.ts',
  'test/integration/cli-listen.test.ts',
  'test/integration/oauth-step-up-browser.test.ts',
  'test/faults/postgres-start.test.ts',
  'test/integration/docs.test.ts',
  'test/integration/worker-watchdog.test.ts',
  'test/integration/dashboard-browser.test.ts',
  'test/integration/observability.test.ts',
];

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
