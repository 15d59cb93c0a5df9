// Credentials in URLs (docs/api-keys.md#credentials-in-urls): what counts as one, and how every URL that leaves
// the service in an answer or a log line is shown without it. Used for error bodies (src/http/middleware/errors.ts),
// every log line (src/platform/logger.ts), stored destinations and the start-up lines alike.

/**
 * Words that make a query or fragment parameter a credential when its name holds one as a whole word, in any case
 * (`token`, `access_token`, `api_key`, `apiKey`, `X-Amz-Signature`, `client_secret`, `sessionId` …). Whole words, so
 * that `author`, `keyword` or `passage` stay what they are.
 */
const CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  'pass',
  'passwd',
  'password',
  'pwd',
  'token',
  'secret',
  'key',
  'apikey',
  'auth',
  'sig',
  'signature',
  'credential',
  'credentials',
  'session',
  'sessionid',
]);

/** A parameter name's words: split at `_`, `-`, `.` and other separators, and where lower case meets upper. */
const isCredentialParam = (name: string): boolean =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .some((word) => CREDENTIAL_WORDS.has(word.toLowerCase()));

/** Schemes whose user part without a password is a user name; in any other (https, nats) it is a token. */
const USER_NAME_SCHEMES: ReadonlySet<string> = new Set([
  'postgres',
  'postgresql',
  'redis',
  'rediss',
  'amqp',
  'amqps',
  'mysql',
  'ftp',
]);

/** A URL within any text: a scheme, `://`, and what follows up to a space, a quote, a bracket or a backslash. */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*):\/\/[^\s"'<>`\\]*/gi;

const MASK = '***';

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function hideUserPart(scheme: string, userPart: string): string {
  const colon = userPart.indexOf(':');
  if (colon !== -1) return `${userPart.slice(0, colon)}:${MASK}`;
  return USER_NAME_SCHEMES.has(scheme.toLowerCase()) ? userPart : MASK;
}

function hideInUrl(url: string, scheme: string): string {
  const start = scheme.length + 3;
  const tail = url.slice(start).search(/[/?#]/);
  const authorityEnd = tail === -1 ? url.length : start + tail;
  const authority = url.slice(start, authorityEnd);
  const at = authority.lastIndexOf('@');
  const host = at === -1 ? authority : `${hideUserPart(scheme, authority.slice(0, at))}@${authority.slice(at + 1)}`;
  const rest = url
    .slice(authorityEnd)
    .replace(/([?&#;])([^=&#;]*)=([^&#;]*)/g, (param, sep: string, name: string) =>
      isCredentialParam(decodeURIComponentSafe(name)) ? `${sep}${name}=${MASK}` : param,
    );
  return url.slice(0, start) + host + rest;
}

/**
 * Every URL in `text` with its credentials masked: a password in the user part, a user part that is a token, and
 * the value of every credential parameter of its query or fragment. The rest of the text is kept as it is.
 */
export function hideUrlCredentials(text: string): string {
  return text.replace(URL_IN_TEXT, (url, scheme: string) => hideInUrl(url, scheme));
}

/** Whether `url` carries a credential that hideUrlCredentials would mask. */
export const hasUrlCredentials = (url: string): boolean => hideUrlCredentials(url) !== url;

/** A value with hideUrlCredentials applied to every string in it, at any depth (an error's details). */
export function hideUrlCredentialsIn<T>(value: T): T {
  if (typeof value === 'string') return hideUrlCredentials(value) as T;
  if (Array.isArray(value)) return value.map(hideUrlCredentialsIn) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideUrlCredentialsIn(v)])) as T;
  return value;
}

/**
 * A service URL for messages (start-up lines, the banner): its password hidden, whether in the user part or in a
 * `?password=` parameter (libpq reads one). Used for Postgres and Redis alike.
 */
export function withoutPassword(url: string): string {
  try {
    new URL(url);
  } catch {
    return '(unparsable URL)';
  }
  return hideUrlCredentials(url);
}
