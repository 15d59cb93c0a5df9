import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, name = 'switchboard', destination?: NodeJS.WritableStream): Logger {
  const options = { name, level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
