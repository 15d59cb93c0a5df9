import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

// The platform's own email (owner notifications): SMTP when SMTP_URL is set, otherwise a JSON transport
// whose messages are only logged, so development and tests need no mail server.

export interface PlatformMail {
  to: string;
  subject: string;
  text: string;
}

const transports = new Map<string, Transporter>();

function transportFor(config: Config): Transporter {
  const key = config.mail.smtpUrl ?? 'json';
  let t = transports.get(key);
  if (!t) {
    t = config.mail.smtpUrl ? nodemailer.createTransport(config.mail.smtpUrl) : nodemailer.createTransport({ jsonTransport: true });
    transports.set(key, t);
  }
  return t;
}

/** Sends a platform email; failures are logged, never thrown (a notification row exists regardless). */
export async function sendPlatformMail(config: Config, logger: Logger, mail: PlatformMail): Promise<boolean> {
  try {
    const info = await transportFor(config).sendMail({ from: config.mail.from, to: mail.to, subject: mail.subject, text: mail.text });
    logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId, transport: config.mail.smtpUrl ? 'smtp' : 'log' }, 'platform email sent');
    return true;
  } catch (err) {
    logger.warn({ to: mail.to, subject: mail.subject, err: (err as Error).message }, 'platform email failed');
    return false;
  }
}
