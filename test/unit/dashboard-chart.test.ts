import { describe, expect, it } from 'vitest';
import { attemptsChartDataUri } from '../../src/http/dashboard/chart.js';

// The health chart of a subscription (src/http/dashboard/chart.ts), read back from its SVG: a bucket is drawn five
// minutes wide on a time axis of its own span, so one bucket is a narrow bar, and each time label appears once.

const svgOf = (uri: string) => Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64').toString('utf8');
/** The width of each bar (its path is `M x,y h <width> …`). */
const barWidths = (svg: string) =>
  [...svg.matchAll(/aria-roledescription="bar" d="M[\d.-]+,[\d.-]+h([\d.]+)/g)].map((m) => Number(m[1]));
/** The height of each bar (`… v <height> …`), in the order drawn: the succeeded attempts, then the failed. */
const barHeights = (svg: string) =>
  [...svg.matchAll(/aria-roledescription="bar" d="M[\d.-]+,[\d.-]+h[\d.]+v([\d.]+)/g)].map((m) => Number(m[1]));
/** The x axis's tick labels: the texts on the axis line under the plot (y of 15). */
const timeLabels = (svg: string) =>
  [...svg.matchAll(/<text[^>]*transform="translate\([\d.]+,15\)"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

/** The chart of `buckets`, failing the test if vega or vega-lite has anything to say about it. */
async function draw(buckets: Parameters<typeof attemptsChartDataUri>[0]): Promise<string> {
  const warnings: string[] = [];
  const uri = await attemptsChartDataUri(buckets, (message) => warnings.push(message));
  expect(warnings).toEqual([]);
  return uri;
}

describe('the attempts chart', () => {
  it('draws one bucket as a narrow bar, and never repeats a time label', async () => {
    const svg = svgOf(await draw([{ start: '2026-11-29T03:00:00.000Z', attempts: 5, succeeded: 4 }]));
    const widths = barWidths(svg);
    expect(widths).toHaveLength(2);
    for (const w of widths) expect(w).toBeLessThan(520 / 4);
    const labels = timeLabels(svg);
    expect(labels.length).toBeGreaterThan(1);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('gives neighbouring buckets bars side by side of the same width', async () => {
    const buckets = [0, 5, 10].map((m) => ({
      start: `2026-11-29T03:${String(m).padStart(2, '0')}:00.000Z`,
      attempts: 2,
      succeeded: 2,
    }));
    const widths = barWidths(svgOf(await draw(buckets)));
    expect(widths).toHaveLength(6); // a succeeded and a failed bar per bucket, the failed ones of no height
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThan(2);
    expect(Math.max(...widths)).toBeLessThan(520 / 4);
  });

  it("stacks a bucket's succeeded and failed attempts into one column, each as tall as its count", async () => {
    const svg = svgOf(await draw([{ start: '2026-11-29T03:00:00.000Z', attempts: 9, succeeded: 6 }]));
    const [succeeded, failed] = barHeights(svg);
    expect(succeeded! / failed!).toBeCloseTo(2, 5);
    expect(succeeded! + failed!).toBeGreaterThan(60); // most of the plot's 120 px: a column, not a line
  });
});
