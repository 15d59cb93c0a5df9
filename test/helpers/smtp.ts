import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './wait.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as it arrived (headers and body). */
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** How many SMTP connections were opened to it. */
  connections(): number;
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that accepts everything (no TLS, no auth) and records what arrived. */
export async function startSmtpSink(opts: { rejectAll?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (opts.rejectAll) return callback(new Error('550 mailbox unavailable'));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    async waitFor(count, timeoutMs = 5000) {
      await waitUntil(() => received.length >= count, timeoutMs, `${count} mails`);
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
