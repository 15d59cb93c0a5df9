import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { now } from '../../platform/clock.js';

// The attempts-per-bucket chart of a subscription's health and the requests-per-hour chart of a key's usage: one
// stacked-bars spec, drawn by vega-lite on the server into SVG. The page shows it as an <img> with a data: URI, so
// no script runs in the browser and the SVG's own style attributes are not subject to the page's CSP
// (docs/adr/0061-dashboard-pages.md).

export interface ChartBucket {
  start: string;
  attempts: number;
  succeeded: number;
}

const BUCKET_MS = 5 * 60_000;
/** The shortest time axis: one bucket alone is a bar a twelfth of the width, not the whole plot. */
const MIN_SPAN_MS = 60 * 60_000;

/** What vega and vega-lite have to say while drawing (a warning, an error), as one line each. */
export type ChartWarning = (message: string) => void;

/** vega's and vega-lite's logger, handing each warning or error to `warn` instead of writing it to the console. */
const chartLogger = (warn: ChartWarning) =>
  vega.logger(vega.Warn, undefined, (_method, level, args) => warn(`${level} ${args.map(String).join(' ')}`));

/** One bar of a stacked chart: the time span it covers and its count of one of two outcomes. */
interface Bar {
  start: string;
  end: string;
  outcome: string;
  n: number;
}

/** How a stacked two-outcome bar chart over time is labelled and coloured: the good outcome green, the other red. */
interface StackedBars {
  bars: Bar[];
  /** The time axis, epoch ms. */
  first: number;
  last: number;
  xTitle: string;
  yTitle: string;
  outcomes: [good: string, bad: string];
}

// Each bar spans its bucket on a time scale of its own: a quantitative width, not a band that fills the plot, and
// an axis whose ticks are distinct times. The span is set as domainMin/domainMax: a `domain` is read differently
// for x and x2, which share the scale, and vega-lite warns that the two conflict.
const stackedBarsSpec = (c: StackedBars): TopLevelSpec => ({
  width: 960,
  height: 120,
  background: 'white',
  data: { values: c.bars },
  mark: { type: 'bar', orient: 'vertical' },
  encoding: {
    x: {
      field: 'start',
      type: 'temporal',
      title: c.xTitle,
      scale: { type: 'utc', domainMin: c.first, domainMax: c.last },
      axis: { format: '%b %d %H:%M', labelOverlap: true },
    },
    x2: { field: 'end' },
    y: { field: 'n', type: 'quantitative', title: c.yTitle, stack: true },
    color: {
      field: 'outcome',
      type: 'nominal',
      title: null,
      scale: { domain: c.outcomes, range: ['#2e8b57', '#c0392b'] },
    },
  },
  config: { font: 'sans-serif' },
});

/** The span of a chart of buckets `bucketMs` long starting at `starts`, at least `minSpanMs`, ending now when empty. */
function spanOf(starts: number[], bucketMs: number, minSpanMs: number): { first: number; last: number } {
  const last = starts.length ? Math.max(...starts) + bucketMs : now().getTime();
  return { first: Math.min(...starts, last - minSpanMs), last };
}

/** The chart as an SVG data: URI; `warn` hears anything vega has to say about the spec (nothing, when it is right). */
export async function attemptsChartDataUri(buckets: ChartBucket[], warn: ChartWarning): Promise<string> {
  const bars = buckets.flatMap((b) => {
    const end = new Date(Date.parse(b.start) + BUCKET_MS).toISOString();
    return [
      { start: b.start, end, outcome: 'succeeded', n: b.succeeded },
      { start: b.start, end, outcome: 'failed', n: b.attempts - b.succeeded },
    ];
  });
  const span = spanOf(
    buckets.map((b) => Date.parse(b.start)),
    BUCKET_MS,
    MIN_SPAN_MS,
  );
  const spec = { bars, ...span, xTitle: '5-minute bucket (UTC)', yTitle: 'attempts' };
  return render(stackedBarsSpec({ ...spec, outcomes: ['succeeded', 'failed'] }), warn);
}

/** A spec drawn into an SVG data: URI. */
async function render(spec: TopLevelSpec, warn: ChartWarning): Promise<string> {
  const logger = chartLogger(warn);
  const view = new vega.View(vega.parse(compile(spec, { logger }).spec), { renderer: 'none', logger });
  try {
    const svg = await view.toSVG();
    return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  } finally {
    view.finalize();
  }
}

export interface UsageHour {
  hour: string;
  outcomes: Record<string, number>;
}

const HOUR_MS = 3600_000;

/** A key's requests per hour (GET /v1/api_keys/:keyId/usage), valid and refused stacked, over a day at least. */
export async function usageChartDataUri(hours: UsageHour[], warn: ChartWarning): Promise<string> {
  const bars = hours.flatMap((h) => {
    const end = new Date(Date.parse(h.hour) + HOUR_MS).toISOString();
    const all = Object.values(h.outcomes).reduce((a, b) => a + b, 0);
    const valid = h.outcomes.valid ?? 0;
    return [
      { start: h.hour, end, outcome: 'valid', n: valid },
      { start: h.hour, end, outcome: 'refused', n: all - valid },
    ];
  });
  const span = spanOf(
    hours.map((h) => Date.parse(h.hour)),
    HOUR_MS,
    24 * HOUR_MS,
  );
  const spec = { bars, ...span, xTitle: 'hour (UTC)', yTitle: 'requests' };
  return render(stackedBarsSpec({ ...spec, outcomes: ['valid', 'refused'] }), warn);
}
