import { lookup } from 'node:dns/promises';
import { isIP, type Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { domainToASCII, domainToUnicode } from 'node:url';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { blockedAddressReason, blockedHostnameReason, ipLiteralOf } from './ip-ranges.js';
import { toStorableText } from './text.js';

// The one outbound HTTP client for targets chosen by customers (webhooks, HTTP agent runtimes). It refuses
// internal addresses twice: when the URL is saved (checkTargetUrl) and inside the connector, on the address
// actually dialled, so a DNS answer that changes after creation (rebinding) cannot reach an internal host.

/** What a webhook attempt keeps of a receiver's answer. Callers that need the answer itself pass a larger cap. */
export const MAX_RESPONSE_BODY = 4096;
/** Error messages carry the receiver's own words at times (a TLS alert, a reset reason); kept to this length. */
const MAX_ERROR_MESSAGE = 1000;

export type SafeErrorCode =
  | 'timeout'
  | 'connection_refused'
  | 'dns_failed'
  | 'blocked_address'
  | 'http_status'
  | 'redirect'
  | 'tls'
  | 'invalid_url';

export type SafeResponse =
  /** `headers` absent: the destination has none to record (a stream's local receiver). */
  | { ok: true; status: number; headers?: Record<string, string>; body: string; durationMs: number }
  | {
      ok: false;
      error: SafeErrorCode;
      status?: number;
      headers?: Record<string, string>;
      body?: string;
      durationMs: number;
      message: string;
    };

export class BlockedAddressError extends Error {
  readonly code = 'SB_BLOCKED_ADDRESS';
}

const DNS_TIMEOUT_MS = 3000;

/**
 * Connections the client keeps to one origin at most. A request past them waits in the pool for one, and its
 * timeout starts when it gets one (CappedExchange).
 */
export const CONNECTIONS_PER_ORIGIN = 256;

async function resolveAll(hostname: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`DNS lookup of ${hostname} timed out`), { code: 'EAI_AGAIN' })),
      DNS_TIMEOUT_MS,
    );
  });
  try {
    const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return answers.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address to dial for a host, after every resolved address has passed the rules. The connector calls
 * this on every new connection; exported (with an injectable resolver) so the rule can be tested directly.
 */
export async function pickAddress(
  hostname: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<string> {
  const literal = ipLiteralOf(hostname);
  if (!allowPrivate) {
    const nameReason = literal ? null : blockedHostnameReason(hostname);
    if (nameReason) throw new BlockedAddressError(`${hostname} is ${nameReason}`);
  }
  const addresses = literal ? [literal] : await resolve(hostname);
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' });
  if (!allowPrivate) {
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      // Refuse when any answer is internal: a name that mixes public and internal answers is hostile.
      if (reason) throw new BlockedAddressError(`${hostname} resolves to ${address} (${reason})`);
    }
  }
  return addresses[0]!;
}

function createDispatcher(allowPrivate: boolean, connectTimeoutMs: number): Agent {
  const base = buildConnector({ timeout: connectTimeoutMs });
  const connect: buildConnector.connector = (opts, callback) => {
    pickAddress(opts.hostname, allowPrivate).then(
      (address) => {
        const servername = opts.servername ?? (isIP(opts.hostname.replace(/^\[|\]$/g, '')) ? undefined : opts.hostname);
        base({ ...opts, hostname: address, servername }, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error('connect failed'), null);
          // Belt and braces: judge the peer of the socket we actually got.
          const peer = (socket as Socket).remoteAddress;
          const reason = !allowPrivate && peer ? blockedAddressReason(peer) : null;
          if (reason) {
            socket.destroy();
            return callback(new BlockedAddressError(`connected peer ${peer} is ${reason}`), null);
          }
          callback(null, socket);
        });
      },
      (err: Error) => callback(err, null),
    );
  };
  // One pool for every receiver: keep-alive connections matter for throughput; a bounded pool per origin.
  return new Agent({
    connect,
    connections: CONNECTIONS_PER_ORIGIN,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
  });
}

/** Syntax rules of a target URL; returns the parsed URL or a reason. */
function parseTarget(config: Config, url: string): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  const allowHttp = config.webhooks.allowPrivateTargets;
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) return 'must use https://';
  if (parsed.username || parsed.password) return 'must not contain a user name or password';
  if (!parsed.hostname) return 'must have a host';
  if (!isValidIdnaHost(parsed.hostname)) return 'must have a host name that is valid IDNA';
  if (parsed.port === '0') return 'must not use port 0';
  return parsed;
}

/**
 * The WHATWG parser passes an `xn--` label through even when its Punycode decodes to a name IDNA refuses
 * (`xn--vuhdqncpe6aj`); decoding leaves such a label as it is, and a valid name survives the round trip.
 */
function isValidIdnaHost(hostname: string): boolean {
  const unicode = domainToUnicode(hostname);
  return !unicode.split('.').some((label) => label.startsWith('xn--')) && domainToASCII(unicode) === hostname;
}

/** Outside production a refusal of a private target says how to receive on one's own machine; the rule stays. */
const privateTargetHint = (config: Config) =>
  config.env === 'production'
    ? ''
    : ' To receive on your own machine in development, set WEBHOOK_ALLOW_PRIVATE_TARGETS=true (never in production).';

/**
 * The host of a target (an http URL's, a broker URL's) must be public, unless private targets are allowed: names are
 * resolved and every answer judged. A name that does not resolve now is accepted: the connector judges it again
 * at every send. `shownUrl` is the target as the error may show it (a broker URL without its password).
 */
export async function checkTargetHost(config: Config, hostname: string, shownUrl: string): Promise<void> {
  if (config.webhooks.allowPrivateTargets) return;
  try {
    await pickAddress(hostname, false);
  } catch (err) {
    if (err instanceof BlockedAddressError)
      throw new AppError(
        'invalid_webhook_url',
        `The url is not a public address: ${err.message}.${privateTargetHint(config)}`,
        { url: shownUrl },
      );
    // DNS failure: not provably internal; checked again on the address dialled.
  }
}

/**
 * Creation-time check of a customer-supplied target. The WHATWG parser has already turned `127.1`,
 * `0x7f000001`, `2130706433` and octal forms into dotted quads.
 */
export async function checkTargetUrl(config: Config, url: string): Promise<void> {
  const parsed = parseTarget(config, url);
  if (typeof parsed === 'string') {
    const hint = parsed === 'must use https://' ? privateTargetHint(config) : '';
    throw new AppError('invalid_webhook_url', `The url ${parsed}.${hint}`, { url });
  }
  await checkTargetHost(config, parsed.hostname, url);
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function classify(err: unknown, timedOut: boolean): { error: SafeErrorCode; message: string } {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const message = e?.message ?? String(err);
  if (
    timedOut ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT'
  ) {
    return { error: 'timeout', message: 'the receiver did not answer in time' };
  }
  if (code === 'SB_BLOCKED_ADDRESS') return { error: 'blocked_address', message };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA')
    return { error: 'dns_failed', message };
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/.test(code) ||
    /certificate|tls|ssl/i.test(message)
  ) {
    return { error: 'tls', message };
  }
  // Refused, reset, unreachable, closed early: the receiver could not be talked to.
  return { error: 'connection_refused', message: code ? `${code}: ${message}` : message };
}

export interface HttpClient {
  /**
   * POSTs `body` to a customer-chosen URL. Never follows redirects, reads at most 4 KiB of the answer (or
   * `maxBodyBytes`), and never throws: every outcome is a SafeResponse whose texts can be stored as they are.
   */
  post(
    url: string,
    body: string,
    headers: Record<string, string>,
    opts?: { timeoutMs?: number; maxBodyBytes?: number },
  ): Promise<SafeResponse>;
  /** Closes the connection pool (end of the runtime that owns it). */
  close(): Promise<void>;
}

/** The outbound client of one runtime: one keep-alive pool for every receiver, closed with the runtime. */
export function createHttpClient(config: Config): HttpClient {
  const dispatcher = createDispatcher(config.webhooks.allowPrivateTargets, config.webhooks.timeoutMs);
  return {
    post: (url, body, headers, opts = {}) => safePost(config, dispatcher, url, body, headers, opts),
    close: () => dispatcher.close().catch(() => undefined),
  };
}

async function safePost(
  config: Config,
  dispatcher: Dispatcher,
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs?: number; maxBodyBytes?: number },
): Promise<SafeResponse> {
  const called = performance.now();
  const parsed = parseTarget(config, url);
  if (typeof parsed === 'string') return { ok: false, error: 'invalid_url', durationMs: 0, message: `url ${parsed}` };

  let exchange!: CappedExchange;
  try {
    const text = await new Promise<string>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? config.webhooks.timeoutMs;
      exchange = new CappedExchange(opts.maxBodyBytes ?? MAX_RESPONSE_BODY, timeoutMs, resolve, reject);
      dispatcher.dispatch(
        {
          origin: parsed.origin,
          path: `${parsed.pathname}${parsed.search}`,
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', ...headers },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        exchange,
      );
    });
    const { status, headers: responseHeaders } = exchange;
    const durationMs = exchange.elapsedMs(called);
    if (status >= 200 && status < 300) return { ok: true, status, headers: responseHeaders, body: text, durationMs };
    if (status >= 300 && status < 400) {
      return {
        ok: false,
        error: 'redirect',
        status,
        headers: responseHeaders,
        body: text,
        durationMs,
        message: `redirect (${status}) not followed`,
      };
    }
    return {
      ok: false,
      error: 'http_status',
      status,
      headers: responseHeaders,
      body: text,
      durationMs,
      message: `receiver answered ${status}`,
    };
  } catch (err) {
    const failure = classify(err, exchange.timedOut);
    return {
      ok: false,
      durationMs: exchange.elapsedMs(called),
      error: failure.error,
      message: toStorableText(failure.message, MAX_ERROR_MESSAGE),
    };
  }
}

/** Past the cap, this much more of an answer is read so that its connection can be reused; then it is given up. */
const DRAIN_BYTES = 64 * 1024;

/**
 * One POST's exchange, as undici's dispatch hands it over: the status, the headers and the first `cap` bytes of the
 * answer, with no response stream in between (the stream, its listeners and undici's request handler were about a
 * fifth of the CPU of a POST and its receiver: docs/performance.md). Settles once, with the body's text
 * or the error.
 *
 * The timeout is the receiver's: one timer, started when a connection takes the request, bounds the whole exchange
 * (headers, and a body that drips). A request that waits in the pool for one of an origin's connections (more in
 * flight than CONNECTIONS_PER_ORIGIN) is not timed out by that wait; connecting has a bound of the same length.
 */
class CappedExchange implements Dispatcher.DispatchHandler {
  status = 0;
  headers: Record<string, string> = {};
  /** The timer fired (the error it ends with is a timeout, whatever undici calls it). */
  timedOut = false;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private controller: Dispatcher.DispatchController | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** When a connection took the request. */
  private sentAt: number | undefined;

  constructor(
    private readonly cap: number,
    private readonly timeoutMs: number,
    private readonly resolve: (text: string) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  /** Milliseconds since a connection took the request, or since `called` if none did (refused, not resolved). */
  elapsedMs(called: number): number {
    return Math.round(performance.now() - (this.sentAt ?? called));
  }

  expire(): void {
    this.timedOut = true;
    this.controller?.abort(new Error('the receiver did not answer in time'));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.timer) return;
    this.sentAt = performance.now();
    this.timer = setTimeout(expire, this.timeoutMs, this);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // A 1xx is informational: the answer is still to come.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.size < this.cap) this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < this.cap + DRAIN_BYTES) return;
    this.finish();
    controller.abort(new Error('answer longer than what is kept'));
  }

  onResponseEnd(): void {
    this.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(err);
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    // Decoding turns invalid UTF-8 into U+FFFD; toStorableText replaces NUL, which Postgres refuses in text.
    this.resolve(toStorableText(Buffer.concat(this.chunks).subarray(0, this.cap).toString('utf8')));
  }
}

const expire = (exchange: CappedExchange) => exchange.expire();
