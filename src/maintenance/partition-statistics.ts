import type { Deps } from '../app/deps.js';
import {
  analyzePartition,
  dayStart,
  findPartitionStatistics,
  partitionName,
  PARTITIONED_TABLES,
  setAnalyzeSettings,
  type PartitionStatistics,
} from './partitions.repository.js';
import { DAY_MS } from './retention.js';

// Statistics of the day partitions that are filling (docs/plans.md). Every new row goes into today's partition,
// which starts the day empty and may hold millions of rows by its end. Autovacuum's default rule (analyze after
// 50 rows + 10 % of the table changed) lets the statistics fall far behind such a partition, and until its first
// analyze the planner knows its size but nothing of its columns: a batch join was planned as a hash join over the
// whole day. So today's and the next day's partitions get their own rule (FILLING_ANALYZE_*), and this step of the
// maintenance job applies the same rule itself, so that statistics follow the day even when autovacuum is off or
// behind. An ANALYZE also invalidates every cached plan that reads the partition: prepared statements are
// re-planned with the new statistics on their next execution.

/** Autoanalyze of a filling day: after this many rows changed, plus FILLING_ANALYZE_SCALE_FACTOR of its rows. */
export const FILLING_ANALYZE_THRESHOLD = 1000;
export const FILLING_ANALYZE_SCALE_FACTOR = 0.05;

const settings = [
  `autovacuum_analyze_threshold=${FILLING_ANALYZE_THRESHOLD}`,
  `autovacuum_analyze_scale_factor=${FILLING_ANALYZE_SCALE_FACTOR}`,
];

/**
 * Autovacuum's rule for analyzing, with the filling rule's numbers. An empty partition is never analyzed here:
 * statistics that say "no rows" would let a plan cached now treat it as empty all day.
 */
export function needsAnalyze(p: PartitionStatistics): boolean {
  const rows = Math.max(p.estimatedRows, 0);
  return p.liveRows > 0 && p.modifiedSinceAnalyze >= FILLING_ANALYZE_THRESHOLD + FILLING_ANALYZE_SCALE_FACTOR * rows;
}

export interface StatisticsResult {
  /** Partitions given the filling rule in this run. */
  configured: string[];
  /** Partitions analyzed in this run. */
  analyzed: string[];
}

/**
 * Gives today's and the next day's partitions the filling rule (once: a partition that has it is left alone),
 * and analyzes yesterday's and today's when they changed past the rule since their last analyze.
 */
export async function keepFillingStatisticsFresh(deps: Deps, at: Date): Promise<StatisticsResult> {
  const day = (offset: number) => new Date(dayStart(at).getTime() + offset * DAY_MS);
  const filling = PARTITIONED_TABLES.flatMap((table) => [0, 1].map((offset) => partitionName(table, day(offset))));
  const recent = PARTITIONED_TABLES.flatMap((table) => [-1, 0].map((offset) => partitionName(table, day(offset))));
  const result: StatisticsResult = { configured: [], analyzed: [] };
  for (const p of await findPartitionStatistics(deps.db, [...new Set([...filling, ...recent])])) {
    if (filling.includes(p.name) && !settings.every((s) => p.options.includes(s))) {
      await setAnalyzeSettings(deps.db, p.name, FILLING_ANALYZE_THRESHOLD, FILLING_ANALYZE_SCALE_FACTOR);
      result.configured.push(p.name);
    }
    if (recent.includes(p.name) && needsAnalyze(p)) {
      await analyzePartition(deps.db, p.name);
      result.analyzed.push(p.name);
    }
  }
  return result;
}
