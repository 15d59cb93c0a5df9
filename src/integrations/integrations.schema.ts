import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { text } from '../platform/input.js';
import { hideUrlCredentials } from '../platform/url-password.js';
import { outText, timestamp } from '../platform/output.js';

export const PROVIDERS = ['smtp', 'sms-http'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const isProvider = (value: string): value is Provider => (PROVIDERS as readonly string[]).includes(value);

const hostname = text()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$|^[0-9a-f:.]+$/,
    'must be a host name or IP address',
  );

// "addr@example.com" or "Name <addr@example.com>".
const mailbox = text()
  .trim()
  .max(320)
  .refine((v) => {
    const m = /^(?:[^<>\r\n]*<([^<>\s]+)>|([^<>\s]+))$/.exec(v);
    return (
      m !== null &&
      text()
        .email()
        .safeParse(m[1] ?? m[2]).success
    );
  }, 'must be an email address, optionally as "Name <address>"');

// Header names are RFC 9110 tokens; headers the transport sets itself may not be overridden.
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
]);
const headerName = text()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name')
  .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()), 'is set by the service and cannot be overridden');
const headerValue = text()
  .max(4096)
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks');

// Where the targets point (public or internal) is judged after parsing, by the SSRF-safe client's check.
export function smtpInput() {
  return z
    .strictObject({
      host: hostname,
      port: z.number().int().min(1).max(65535),
      secure: z.boolean().optional(),
      username: text().min(1).max(256).optional(),
      password: text().min(1).max(1024).optional(),
      from: mailbox,
    })
    .refine((v) => v.password === undefined || v.username !== undefined, {
      path: ['username'],
      message: 'is required with password',
    });
}

export function smsHttpInput() {
  return z.strictObject({
    url: text()
      .max(2048)
      .refine((v) => URL.canParse(v), 'must be an absolute URL'),
    headers: z
      .record(headerName, headerValue)
      .refine((h) => Object.keys(h).length <= 20, 'at most 20 headers')
      .optional(),
    // E.164 number or an alphanumeric sender id.
    from: text()
      .trim()
      .regex(
        /^(?:\+[1-9]\d{6,14}|[A-Za-z0-9][A-Za-z0-9 ]{0,10})$/,
        'must be an E.164 number or a sender id of up to 11 letters and digits',
      ),
  });
}

export type SmtpInput = z.infer<ReturnType<typeof smtpInput>>;
export type SmsHttpInput = z.infer<ReturnType<typeof smsHttpInput>>;

/** The decrypted configuration a sender uses. */
export type SmtpConfig = {
  host: string;
  port: number;
  secure: boolean;
  username: string | null;
  password: string | null;
  from: string;
};
export type SmsHttpConfig = {
  url: string;
  headers: Record<string, string>;
  from: string;
};

export interface IntegrationRow {
  id: string;
  account_id: string;
  provider: Provider;
  settings: Record<string, unknown>;
  secrets_sealed: string;
  connected_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** Splits a validated input into what may be shown (settings) and what is sealed (secrets). */
export function splitSecrets(
  provider: Provider,
  input: SmtpInput | SmsHttpInput,
): { settings: Record<string, unknown>; secrets: Record<string, unknown> } {
  if (provider === 'smtp') {
    const v = input as SmtpInput;
    return {
      settings: {
        host: v.host,
        port: v.port,
        secure: v.secure ?? v.port === 465,
        username: v.username ?? null,
        from: v.from,
        hasPassword: v.password !== undefined,
      },
      secrets: { password: v.password ?? null },
    };
  }
  const v = input as SmsHttpInput;
  const headers = v.headers ?? {};
  return {
    settings: { url: redactQuery(v.url), from: v.from, headerNames: Object.keys(headers) },
    // The full URL is sealed too: providers often put an API key in the query string.
    secrets: { url: v.url, headers },
  };
}

function redactQuery(raw: string): string {
  const url = new URL(hideUrlCredentials(raw));
  for (const key of [...new Set(url.searchParams.keys())]) url.searchParams.set(key, 'redacted');
  return url.toString();
}

export function toIntegrationResponse(provider: Provider, row: IntegrationRow | undefined) {
  if (!row) return { provider, connected: false };
  return {
    provider,
    connected: true,
    ...row.settings,
    connectedAt: iso(row.connected_at),
    updatedAt: iso(row.updated_at),
  };
}

const connected = { connected: z.literal(true), connectedAt: timestamp(), updatedAt: timestamp() };

/** A provider as shown: its settings when connected, never its secrets (a password, a full URL, header values). */
export const integrationResponse = z
  .union([
    z.object({ provider: z.enum(PROVIDERS), connected: z.literal(false) }),
    z.object({
      provider: z.literal('smtp'),
      ...connected,
      host: outText(),
      port: z.number().int(),
      secure: z.boolean(),
      username: outText().nullable(),
      from: outText(),
      hasPassword: z.boolean(),
    }),
    z.object({
      provider: z.literal('sms-http'),
      ...connected,
      url: outText().describe(
        'The URL with every query value replaced by "redacted", and its other credentials masked',
      ),
      from: outText(),
      headerNames: z.array(outText()),
    }),
  ])
  .meta({ id: 'Integration' });
