// How the start-up banner is written, apart from what it says (src/http/banner.ts): npm start's supervisor prints
// the banner its API process composed, and imports nothing of the application to do it (docs/processes.md).

export type BannerRow = 'api' | 'dashboard' | 'docs' | 'bullBoard' | 'metrics' | 'postgres' | 'redis';
export type Banner = Record<BannerRow, string>;

const LABELS: Record<BannerRow, string> = {
  api: 'API',
  dashboard: 'Dashboard',
  docs: 'Docs',
  bullBoard: 'Bull-board',
  metrics: 'Metrics',
  postgres: 'Postgres',
  redis: 'Redis',
};

interface InfoLogger {
  info(obj: object, msg: string): void;
  info(msg: string): void;
}

/** Pretty logs get an aligned block a person can read; JSON logs get one record with a field per line. */
export function writeBanner(logger: InfoLogger, format: 'pretty' | 'json', title: string, banner: Banner): void {
  if (format === 'json') {
    logger.info(banner, title);
    return;
  }
  const rows = (Object.keys(LABELS) as BannerRow[]).map((k) => `  ${LABELS[k].padEnd(11)} ${banner[k]}`);
  logger.info([title, ...rows].join('\n'));
}
