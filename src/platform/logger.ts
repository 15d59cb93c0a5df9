import { createRequire } from 'node:module';
import { pino, stdTimeFunctions, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { hideUrlCredentials } from './url-password.ts';

// Paths whose values never reach a log line, wherever they appear.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-inbound-token"]',
  '*.password',
  '*.secret',
  '*.key',
  '*.token',
  '*.legacySecret',
  '*.apiKey',
  '*.authorization',
  '*.appSecret',
];

/**
 * Level names ("warn", not 40) and ISO times: what log pipelines (Loki, CloudWatch, Datadog) read without a
 * mapping. pino-pretty reads both forms.
 */
export function createLogger(level: string, name = 'switchboard', destination?: NodeJS.WritableStream): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    // Whatever field or message holds a URL (a request's, an error's, a destination's), its credentials are
    // masked in the line as written (src/platform/url-password.ts).
    hooks: { streamWrite: hideUrlCredentials },
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

export type LogFormat = 'pretty' | 'json';

/**
 * The service's logger: one JSON object a line for machines, or pino-pretty's readable lines for a person at a
 * terminal. Pretty output is written synchronously on this thread, so it keeps its order with everything else.
 */
export function createServiceLogger(level: string, format: LogFormat): Logger {
  if (format === 'json') return createLogger(level);
  // Loaded for pretty output only: a process that logs JSON does not hold it.
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return createLogger(
    level,
    'switchboard',
    pinoPretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' }),
  );
}

export type { Logger };
