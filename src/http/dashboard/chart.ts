import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

// The attempts-per-bucket chart of a subscription's health, drawn by vega-lite on the server into SVG. The page
// shows it as an <img> with a data: URI, so no script runs in the browser and the SVG's own style attributes are
// not subject to the page's CSP (docs/adr/0061-dashboard-pages.md).

export interface ChartBucket {
  start: string;
  attempts: number;
  succeeded: number;
}

export async function attemptsChartDataUri(buckets: ChartBucket[]): Promise<string> {
  const values = buckets.flatMap((b) => [
    { start: b.start, outcome: 'succeeded', n: b.succeeded },
    { start: b.start, outcome: 'failed', n: b.attempts - b.succeeded },
  ]);
  const spec: TopLevelSpec = {
    width: 520,
    height: 120,
    background: 'white',
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'start', type: 'temporal', timeUnit: 'yearmonthdatehoursminutes', title: '5-minute bucket (UTC)' },
      y: { field: 'n', type: 'quantitative', title: 'attempts', stack: true },
      color: {
        field: 'outcome',
        type: 'nominal',
        title: null,
        scale: { domain: ['succeeded', 'failed'], range: ['#2e8b57', '#c0392b'] },
      },
    },
    config: { font: 'sans-serif' },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  } finally {
    view.finalize();
  }
}
