import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { readResults, type BenchResult } from './results.js';

// The chart of the webhook bench's rate sweep (docs/performance-p99.png): p99 commit → arrival against the paced
// rate, the pipeline beside its floor, drawn by vega-lite and rendered to PNG by resvg from a saved result.
// `npm run bench:chart` draws it from the newest result in bench/results/ whose sweep measured more than one rate;
// `npm run bench:chart -- <result.json>` from that one.

export interface SweepPoint {
  rate: number;
  series: 'pipeline' | 'floor';
  p99Ms: number;
}

export async function renderP99Chart(points: SweepPoint[], out: string, title: string | string[]): Promise<void> {
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 560,
    height: 320,
    background: 'white',
    data: { values: points },
    layer: [
      {
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'rate', type: 'quantitative', title: 'paced rate (events/s)' },
          y: { field: 'p99Ms', type: 'quantitative', title: 'p99 commit → arrival (ms, log)', scale: { type: 'log' } },
          color: {
            field: 'series',
            type: 'nominal',
            title: null,
            // The floor's two parts run together, as the pipeline's do (docs/adr/0077-floor-together.md).
            legend: {
              orient: 'bottom',
              labelLimit: 0,
              labelExpr: "datum.label == 'floor' ? 'floor (commit-only + bare BullMQ POST)' : datum.label",
            },
          },
        },
      },
      { mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' }, encoding: { y: { datum: 250 } } },
    ],
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  writeFileSync(
    out,
    new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true } }).render().asPng(),
  );
}

interface SweepRow {
  rate: number;
  pipeline?: { p99Ms: number };
  floor?: { p99Ms: number };
}

function sweepRows(result: BenchResult): SweepRow[] {
  return (result.figures.sweep_rows as SweepRow[] | undefined) ?? [];
}

/** The chart's points, and a title that says which run and which machine they come from. */
export function chartOf(result: BenchResult): { points: SweepPoint[]; title: string[] } {
  const points = sweepRows(result).flatMap((row) =>
    (['pipeline', 'floor'] as const).flatMap((series) => {
      const side = row[series];
      return side ? [{ rate: row.rate, series, p99Ms: side.p99Ms }] : [];
    }),
  );
  const m = result.machine;
  return {
    points,
    title: [
      'Webhook delivery: p99 commit → arrival against paced rate',
      `${result.startedAt.slice(0, 10)}, ${m.cores} cores, load ${m.loadAverage1mAtStart} at start` +
        (m.loadAverage1mAtEnd === undefined ? ', ' : ` and ${m.loadAverage1mAtEnd} at end, `) +
        `Postgres ${m.postgres.split(' ')[0]}, Redis ${m.redis}`,
    ],
  };
}

if (process.argv[1]?.endsWith('p99-chart.ts')) {
  const [file, out = 'docs/performance-p99.png'] = process.argv.slice(2);
  const results = readResults().filter((r) => (file ? resolve(r.file) === resolve(file) : sweepRows(r).length > 1));
  const result = results.at(-1);
  if (!result) throw new Error(`no saved sweep of more than one rate${file ? ` in ${file}` : ''}`);
  const { points, title } = chartOf(result);
  await renderP99Chart(points, out, title);
  console.log(`${out} drawn from ${result.file}`);
}
