// What a broker destination names (docs/webhooks.md#destination-kinds): its URL, parsed and shown without its
// password, and the routing key or subject, a template whose one placeholder is `{event}`. Shared by the
// kinds' declarations (src/delivery/kinds) and their transports, so what is accepted is what is sent.

import type { z } from 'zod';
import { text } from '../platform/input.js';
import { hideUrlCredentials } from '../platform/url-password.js';

/** The schemes whose URLs speak TLS. */
const TLS_SCHEMES = ['amqps:', 'tls:'];

const DEFAULT_PORTS: Record<string, number> = { 'amqp:': 5672, 'amqps:': 5671, 'nats:': 4222, 'tls:': 4222 };

/** The one placeholder of a routing key or subject template. */
export const EVENT_PLACEHOLDER = '{event}';

/** A routing key or subject for one event: every `{event}` replaced by the event's name. */
export const expandTemplate = (template: string, event: string): string =>
  template.split(EVENT_PLACEHOLDER).join(event);

/** A template field's input: text that `problemOf` accepts, its refusal the issue's message. */
export const templateOf = (problemOf: (t: string) => string | null): z.ZodType<string> =>
  text().superRefine((v, ctx) => {
    const problem = problemOf(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Braces appear only as `{event}`. */
const placeholdersOnly = (template: string): boolean => !/[{}]/.test(template.split(EVENT_PLACEHOLDER).join(''));

/** Why a routing key template is refused, or null: printable ASCII without spaces, 1–200 characters. */
export function routingKeyProblem(template: string): string | null {
  if (!placeholdersOnly(template)) return 'the only placeholder is {event}';
  if (!/^[\x21-\x7e]{1,200}$/.test(template)) return '1 to 200 printable characters, no spaces';
  return null;
}

/**
 * Why a subject template is refused, or null: tokens separated by `.`, each of letters, digits, `_`, `-` and
 * `{event}` (no wildcards: a publish names one subject), 1–200 characters.
 */
export function subjectProblem(template: string): string | null {
  if (!placeholdersOnly(template)) return 'the only placeholder is {event}';
  if (template.length > 200) return 'at most 200 characters';
  const tokens = template.split('.');
  if (tokens.some((t) => !/^([A-Za-z0-9_-]|\{event\})+$/.test(t)))
    return 'tokens of letters, digits, "_", "-" or {event}, separated by "."; no wildcards';
  return null;
}

/** Exchange names as RabbitMQ allows them; '' is the default exchange. */
export const EXCHANGE_PATTERN = /^[A-Za-z0-9_.:-]{0,127}$/;

/** A broker URL taken apart: where to dial, and who to be. Holds the password: never log or store it. */
export interface BrokerAddress {
  tls: boolean;
  hostname: string;
  port: number;
  username: string;
  password: string;
  /** RabbitMQ's virtual host ('/' when the URL names none). */
  vhost: string;
}

/** What a kind's broker URL may be: its schemes, and whether it may have a path (RabbitMQ's virtual host). */
export interface BrokerUrlRules {
  schemes: readonly string[];
  path: boolean;
}

/** Why a broker URL is refused by `rules`, or null. */
export function brokerUrlProblem(rules: BrokerUrlRules, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  if (!rules.schemes.includes(parsed.protocol)) return `must use ${rules.schemes.join('// or ')}//`;
  if (!parsed.hostname) return 'must have a host';
  if (parsed.port === '0') return 'must not use port 0';
  if (parsed.hash || parsed.search) return 'must not have a query or fragment';
  if (!rules.path && parsed.pathname && parsed.pathname !== '/') return 'must not have a path';
  return null;
}

export function parseBrokerUrl(url: string): BrokerAddress {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/^\//, '');
  return {
    tls: TLS_SCHEMES.includes(parsed.protocol),
    hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol]!,
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    vhost: path ? decodeURIComponent(path) : '/',
  };
}

/**
 * The URL as the API shows it and attempt records keep it: the password removed, the user name kept; a user name
 * without a password (a NATS token) is removed too, since it is the credential; a credential parameter masked.
 */
export function redactBrokerUrl(url: string): string {
  const parsed = new URL(hideUrlCredentials(url));
  if (!parsed.password) parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}
