import { readFileSync, writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

// The chart of the webhook bench's rate sweep (docs/performance-p99.png): p99 commit → arrival against the paced
// rate, the pipeline beside its floor, drawn by vega-lite and rendered to PNG by resvg.
// `npx tsx bench/p99-chart.ts <sweep.json> <out.png>` draws it again from a sweep's saved figures.

export interface SweepPoint {
  rate: number;
  series: 'pipeline' | 'floor';
  p99Ms: number;
}

export async function renderP99Chart(points: SweepPoint[], out: string, title: string): Promise<void> {
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

if (process.argv[1]?.endsWith('p99-chart.ts')) {
  const [input, out] = process.argv.slice(2);
  const saved = JSON.parse(readFileSync(input!, 'utf8')) as { title: string; points: SweepPoint[] };
  await renderP99Chart(saved.points, out!, saved.title);
}
