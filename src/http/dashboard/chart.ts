import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { now } from '../../platform/clock.js';

// The attempts-per-bucket chart of a subscription's health, drawn by vega-lite on the server into SVG. The page
// shows it as an <img> with a data: URI, so no script runs in the browser and the SVG's own style attributes are
// not subject to the page's CSP (docs/adr/0061-dashboard-pages.md).

export interface ChartBucket {
  start: string;
  attempts: number;
  succeeded: number;
}

const BUCKET_MS = 5 * 60_000;
/** The shortest time axis: one bucket alone is a bar a twelfth of the width, not the whole plot. */
const MIN_SPAN_MS = 60 * 60_000;

export async function attemptsChartDataUri(buckets: ChartBucket[]): Promise<string> {
  const starts = buckets.map((b) => Date.parse(b.start));
  const last = starts.length ? Math.max(...starts) + BUCKET_MS : now().getTime();
  const first = Math.min(...starts, last - MIN_SPAN_MS);
  const values = buckets.flatMap((b) => {
    const end = new Date(Date.parse(b.start) + BUCKET_MS).toISOString();
    return [
      { start: b.start, end, outcome: 'succeeded', n: b.succeeded },
      { start: b.start, end, outcome: 'failed', n: b.attempts - b.succeeded },
    ];
  });
  // Each bar spans its bucket's five minutes on a time scale of its own: a quantitative width, not a band that
  // fills the plot, and an axis whose ticks are distinct times.
  const spec: TopLevelSpec = {
    width: 520,
    height: 120,
    background: 'white',
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: {
        field: 'start',
        type: 'temporal',
        title: '5-minute bucket (UTC)',
        scale: { type: 'utc', domain: [first, last] },
        axis: { format: '%b %d %H:%M', labelOverlap: true },
      },
      x2: { field: 'end' },
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
