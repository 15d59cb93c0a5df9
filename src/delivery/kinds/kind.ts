import type { z } from 'zod';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import type { HttpClient } from '../../platform/http-client.js';
import type { Logger } from '../../platform/logger.js';
import type { RedisClient } from '../../platform/redis.js';
import type { Transport } from '../transport.js';
import type { UrlRing } from '../transports/broker-pool.js';

// What a destination kind is (docs/webhooks.md#destination-kinds): one module under src/delivery/kinds declares
// all of it, and the registry (registry.ts) lists the modules. The API's schemas, the row's settings, the worker's
// load, the transports, the dashboard form and the OpenAPI document are read from these declarations; nothing
// outside a kind's module names the kind.

/** One field a kind takes beyond `url`: the API field of the same name, kept in the row's `settings`. */
export interface KindField {
  /** The API field (POST and PATCH /v1/webhooks, and every answer: null for a subscription of another kind). */
  name: string;
  /** What a client may send, described for the OpenAPI document (the kind's name leads the description). */
  input: z.ZodType;
  /** What an answer shows: its type and description (nullable is added). */
  output: z.ZodType;
  /** The dashboard form's label and placeholder. */
  label: string;
  placeholder: string;
  /** A value the form sends as a number (the form's inputs are text). */
  numeric?: boolean;
}

/**
 * A URL that carries a credential: checked here (scheme, shape), its host passes the address guard
 * (checkTargetHost), the whole URL is sealed (broker_url_sealed) and `url` keeps `redact(url)`. The credential is
 * the URL's secret part: it is never shown in an answer, an error, a log line or an attempt record.
 */
export interface SealedUrl {
  /** Why the URL is refused, or null. */
  problem(url: string): string | null;
  /** The host the address guard checks. */
  host(url: string): string;
  /** The URL as answers and attempt records show it: without its credential. */
  redact(url: string): string;
}

/** What a kind's transport may use of the runtime; `urls` opens sealed URLs (kept opened per process). */
export interface TransportParts {
  config: Config;
  db: Db;
  redis: RedisClient;
  logger: Logger;
  http: HttpClient;
  urls: UrlRing;
}

export interface Kind<N extends string = string> {
  name: N;
  /** Whether a client creates it with POST /v1/webhooks (a stream is opened by `switchboard listen`). */
  created: boolean;
  /** A pulled kind's consumer takes its deliveries (a poll): nothing is sent, nothing is due. */
  pulled: boolean;
  /**
   * Its URL: `none` (a poll has no URL: its url is where it is polled), `public` (an https:// URL through the SSRF
   * guard, no credential in it: it is shown everywhere), or a sealed URL with its own rules.
   */
  url: 'none' | 'public' | SealedUrl;
  fields: readonly KindField[];
  transport(parts: TransportParts): Transport;
  /** The sentence that says how it delivers, for the OpenAPI document's `kind`. */
  description: string;
  /** The same, short, for the pages (after `<name>: `). */
  label: string;
  /** The dashboard form's URL placeholder and how its URL is written (for the form's URL label). */
  urlPlaceholder?: string;
  urlForm?: string;
  /** Where on its destination it delivers, beside its URL, for the pages (from the answer's fields). */
  where?(w: Record<string, unknown>): string;
}

/** A kind's declaration, its name kept as a literal type (so the registry's list names each kind). */
export const defineKind = <N extends string>(kind: Kind<N>): Kind<N> => kind;
