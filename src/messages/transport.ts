import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { getIntegrationConfig } from '../integrations/integrations.service.js';
import type { Deps } from '../app/deps.js';
import { isIP } from 'node:net';
import { pickAddress } from '../platform/http-client.js';

// The one place that decides how mail and SMS leave the service:
// email: the account's connected smtp integration → the platform SMTP_URL → a log transport;
// sms:   the account's connected sms-http integration → a log transport.
// Transports are short-lived (one per send): integration settings can change between sends.

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Our message id, sent as the Message-ID so a receiver can recognise a retried send. */
  messageId?: string;
  replyTo?: string;
}

export interface OutgoingSms {
  from: string;
  to: string;
  text: string;
  messageId: string;
}

export type TransportKind = 'integration' | 'platform' | 'log';

function platformTransport(deps: Deps): { transport: Transporter; kind: TransportKind } {
  if (deps.config.mail.smtpUrl)
    return { transport: nodemailer.createTransport(deps.config.mail.smtpUrl), kind: 'platform' };
  return { transport: nodemailer.createTransport({ jsonTransport: true }), kind: 'log' };
}

async function deliver(
  deps: Deps,
  transport: Transporter,
  kind: TransportKind,
  mail: OutgoingEmail,
): Promise<TransportKind> {
  try {
    const headers = mail.messageId ? { 'Message-ID': `<${mail.messageId}@switchboard>` } : undefined;
    await transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      replyTo: mail.replyTo,
      headers,
    });
    // Never the body: it is the customer's content. Addresses and sizes are enough to follow a send.
    deps.logger.info(
      { transport: kind, to: mail.to, messageId: mail.messageId, bytes: mail.text.length },
      kind === 'log' ? 'email logged (no SMTP configured)' : 'email sent',
    );
    return kind;
  } finally {
    transport.close();
  }
}

/** Sends an agent's email for an account. Throws when the transport refuses (the worker retries). */
export async function sendAccountEmail(deps: Deps, accountId: string, mail: OutgoingEmail): Promise<TransportKind> {
  const smtp = await getIntegrationConfig(deps, accountId, 'smtp');
  if (smtp) {
    // Dial the address we judged, not a name nodemailer would resolve again (DNS rebinding to an internal host).
    const address = await pickAddress(smtp.host, deps.config.webhooks.allowPrivateTargets);
    const options: SMTPTransport.Options = {
      host: address,
      tls: isIP(smtp.host) ? undefined : { servername: smtp.host },
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.username ? { user: smtp.username, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    };
    // The provider authenticates its own sender address; replies still reach the agent's inbox.
    return deliver(deps, nodemailer.createTransport(options), 'integration', {
      ...mail,
      from: smtp.from,
      replyTo: mail.replyTo ?? mail.from,
    });
  }
  const { transport, kind } = platformTransport(deps);
  return deliver(deps, transport, kind, mail);
}

/** Mail from the platform itself (owner notifications): SMTP_URL, else the log transport. */
export async function sendPlatformEmail(
  deps: Deps,
  mail: { to: string; subject: string; text: string },
): Promise<TransportKind> {
  const { transport, kind } = platformTransport(deps);
  return deliver(deps, transport, kind, { ...mail, from: deps.config.mail.from });
}

/** Sends an SMS through the account's HTTP provider (JSON POST via the SSRF-safe client), else logs it. */
export async function sendAccountSms(deps: Deps, accountId: string, sms: OutgoingSms): Promise<TransportKind> {
  const provider = await getIntegrationConfig(deps, accountId, 'sms-http');
  if (!provider) {
    deps.logger.info(
      { transport: 'log', to: sms.to, messageId: sms.messageId, chars: sms.text.length },
      'sms logged (no sms-http integration)',
    );
    return 'log';
  }
  const body = JSON.stringify({
    from: provider.from,
    to: sms.to,
    text: sms.text,
    messageId: sms.messageId,
    inboxAddress: sms.from,
  });
  const res = await deps.http.post(provider.url, body, {
    ...provider.headers,
    'idempotency-key': sms.messageId,
    'user-agent': 'Switchboard-SMS/1',
  });
  if (!res.ok) throw new Error(`sms provider refused the message: ${res.error} (${res.message})`);
  deps.logger.info({ transport: 'integration', to: sms.to, messageId: sms.messageId, status: res.status }, 'sms sent');
  return 'integration';
}
