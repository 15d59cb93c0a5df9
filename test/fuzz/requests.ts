import type { Access } from '../../src/auth/access.js';
import type { RawRequest } from '../helpers/raw-http.js';
import {
  edgeNumber,
  hostileString,
  hostileValue,
  INVALID_UTF8,
  nestedRaw,
  randomText,
  RawJson,
  toJsonText,
  unstorableText,
  type Rand,
} from './random.js';
import { plausibleQuery, TEMPLATES } from './templates.js';
import type { CredentialKind, World } from './world.js';

// Builds one hostile request for a route: a credential of some type, path ids of every sort, a query, headers
// and a body, each valid or mangled by chance.

export type Credential = CredentialKind | 'none' | 'garbage';
const CREDENTIALS: Credential[] = ['session', 'accountKey', 'agentKey', 'none', 'garbage'];

/** Mostly the credential the route admits (so requests reach validation and the database), else any. */
function credentialFor(r: Rand, access: Access, precise: boolean): Credential {
  if (!precise && r.chance(0.3)) return r.pick(CREDENTIALS);
  switch (access.kind) {
    case 'public':
      return 'none';
    case 'agentKey':
      return 'agentKey';
    case 'admin':
      return 'session';
    case 'scope':
      return r.pick<Credential>(access.agentScope ? ['agentKey', 'session', 'accountKey'] : ['session', 'accountKey']);
    default:
      return r.pick<Credential>(['session', 'accountKey']);
  }
}

export interface FuzzRequest extends RawRequest {
  route: string;
  credential: Credential;
  /** For failure reports: what was sent, shortened. */
  summary: string;
}

/** Percent-encodes the UTF-8 form (a lone surrogate becomes U+FFFD, as a browser would send it). */
const encodeAll = (s: string) => (s.isWellFormed() ? encodeURIComponent(s) : encodeURIComponent(s.toWellFormed()));

const KINDS: Record<string, string> = {
  agents: 'agt',
  runs: 'run',
  contacts: 'ct',
  inboxes: 'inb',
  inbound: 'inb',
  messages: 'msg',
  domains: 'dom',
  api_keys: 'key',
  webhooks: 'wh',
};

function pathValue(r: Rand, w: World, collection: string, credential: Credential, precise: boolean): string {
  const ids = w.ids as Record<string, string[]>;
  const own = ids[collection] ?? ['x'];
  const roll = precise ? 0 : r.next();
  if (roll < 0.55) return encodeAll(collection === 'agents' && credential === 'agentKey' ? own[0]! : r.pick(own));
  if (roll < 0.68) return encodeAll(r.pick((w.foreign as Record<string, string[]>)[collection] ?? own));
  if (roll < 0.76) return encodeAll(r.pick(Object.values(w.ids).flat()));
  if (roll < 0.82)
    return `${KINDS[collection] ?? 'x'}_${r.pick(['%00', '%ED%B0%80', '%FF', '%', '%ZZ', '%2F..%2F', '%C0%80'])}`;
  // Raw bytes (\xff below is written as the byte 0xFF) and dot segments as well as long and borrowed ids.
  if (roll < 0.86)
    return r.pick([
      '..',
      '.',
      '%2e%2e',
      'a'.repeat(r.int(65, 6_000)),
      '7d4e3a52-3d0c-4c45-9d4a-2b1f0f6f6a11',
      'null',
      'agt_\xff\xfe',
      'ct_\x80',
    ]);
  return encodeAll(hostileString(r).slice(0, 2_000));
}

function fillPath(r: Rand, w: World, path: string, credential: Credential, precise: boolean): string {
  const segments = path.split('/');
  return segments
    .map((seg, i) => (seg.startsWith(':') ? pathValue(r, w, segments[i - 1]!, credential, precise) : seg))
    .join('/');
}

/** The paths of every leaf of a (small) template, to aim one hostile value at one field. */
function leaves(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    return entries.length ? entries.flatMap(([k, v]) => leaves(v, [...path, k])) : [path];
  }
  return [path];
}

function replaceAt(value: unknown, path: Array<string | number>, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[head!] = replaceAt(copy[head!], rest, leaf);
  return copy;
}

/** One field of a valid body replaced by a hostile value: the rest is valid, so this one reaches the deepest check. */
function preciseBody(r: Rand, template: Record<string, unknown>): unknown {
  const target = r.pick(leaves(template));
  const leaf = r.pick<() => unknown>([
    () => unstorableText(r),
    () => unstorableText(r),
    () => hostileString(r),
    () => edgeNumber(r),
    () => hostileValue(r),
  ])();
  if (r.chance(0.15))
    return new RawJson(
      toJsonText(template).replace(/}$/, `,${JSON.stringify(r.pick(['__proto__', 'constructor']))}:{"polluted":1}}`),
    );
  return replaceAt(template, target, leaf);
}

function query(r: Rand, w: World, precise: boolean): string {
  const pairs: string[] = plausibleQuery(w, r).map(([k, v]) => `${k}=${encodeAll(v)}`);
  const extra = precise ? 1 : r.int(0, 3);
  for (let i = 0; i < extra; i++) {
    const key = r.pick([
      'limit',
      'cursor',
      'agentId',
      'inboxId',
      'conversationId',
      'status',
      'deliveryId',
      'direction',
      '__proto__',
      'constructor',
      'x',
      '',
    ]);
    const value = r.pick<() => string>([
      () => encodeAll(unstorableText(r)),
      () =>
        encodeAll(String(r.pick(['0', '-1', '101', '1e309', 'NaN', '1.5', '0x10', ' 7', '', '99999999999999999999']))),
      () => encodeAll(hostileString(r).slice(0, 3_000)),
      () => r.pick(['%00', '%ED%B0%80', '%FF%FE', '%', '%Z1', '%C3%28']),
      () =>
        encodeAll(
          Buffer.from(
            toJsonText({ t: hostileString(r).slice(0, 40), id: r.pick(Object.values(w.ids).flat()) }),
          ).toString('base64url'),
        ),
      () => encodeAll(r.pick(w.cursors)),
    ])();
    pairs.push(`${encodeAll(key)}=${value}`);
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function authorization(r: Rand, w: World, credential: Credential): string | undefined {
  if (credential === 'none') return undefined;
  if (credential !== 'garbage') return `Bearer ${w.creds[credential]}`;
  return r.pick([
    'Bearer ca_acct_' + 'A'.repeat(38),
    'Bearer ca_agt_' + randomText(r, 40).replace(/[^\x21-\x7e]/g, 'x'),
    'Bearer ca_sess_' + '0'.repeat(40),
    'Basic dXNlcjpwYXNz',
    'Bearer',
    'Bearer    ',
    '',
    'Bearer ' + 'a'.repeat(r.int(100, 9_000)),
    'bearer \xe9\xff',
    `Bearer ${w.creds.session}x`,
    `Bearer ${w.creds.agentKey.slice(0, -1)}`,
    'Bearer a b c',
  ]);
}

/** One broad mutation: a hostile value, a dropped or extra key, a duplicate or polluting key, deep nesting, a wrong type. */
function mutate(r: Rand, body: Record<string, unknown>): unknown {
  const keys = Object.keys(body);
  switch (r.int(0, 9)) {
    case 0:
      return { ...body, [r.pick(keys.length ? keys : ['x'])]: hostileValue(r) };
    case 1:
      return { ...body, [r.pick(keys.length ? keys : ['x'])]: hostileString(r) };
    case 2:
      return { ...body, [r.pick(keys.length ? keys : ['x'])]: edgeNumber(r) };
    case 3: {
      const key = r.pick(keys.length ? keys : ['x']);
      const inner = body[key];
      return inner && typeof inner === 'object' && !Array.isArray(inner)
        ? { ...body, [key]: mutate(r, inner as Record<string, unknown>) }
        : { ...body, [key]: [inner, hostileValue(r)] };
    }
    case 4:
      return Object.fromEntries(Object.entries(body).filter(() => r.chance(0.5)));
    case 5:
      return {
        ...body,
        [r.pick(['__proto__', 'constructor', 'prototype', 'extra', '\u0000', '\udc00'])]: hostileValue(r),
      };
    case 6:
      return new RawJson(
        toJsonText(body).replace(
          /}$/,
          `,${JSON.stringify(r.pick(keys.length ? keys : ['x']))}:${toJsonText(hostileValue(r))}}`,
        ),
      );
    case 7:
      return { ...body, [r.pick(keys.length ? keys : ['x'])]: nestedRaw(r.pick([64, 65, 3_000, 100_000]), r) };
    case 8:
      return r.pick<unknown>([[body], 'body', 12, null, true, []]);
    default:
      return body;
  }
}

function bodyFor(r: Rand, w: World, route: string, precise: boolean): Buffer | undefined {
  const template = TEMPLATES[route];
  if (precise) return template ? Buffer.from(toJsonText(preciseBody(r, template(w, r))), 'utf8') : undefined;
  const roll = r.next();
  let value: unknown;
  if (roll < 0.08) return undefined;
  if (template && roll < 0.8) {
    value = template(w, r);
    for (let i = r.int(0, 3); i > 0; i--)
      value =
        value && typeof value === 'object' && !(value instanceof RawJson) && !Array.isArray(value)
          ? mutate(r, value as Record<string, unknown>)
          : value;
  } else
    value = r.chance(0.7)
      ? Object.fromEntries(Array.from({ length: r.int(0, 5) }, () => [randomText(r, 12), hostileValue(r)]))
      : hostileValue(r);
  let text = Buffer.from(toJsonText(value), 'utf8');
  if (r.chance(0.04)) text = text.subarray(0, r.int(0, text.length)); // malformed: cut anywhere
  if (r.chance(0.04)) {
    const at = Math.max(0, text.indexOf('":"') + 3);
    text = Buffer.concat([text.subarray(0, at), r.pick(INVALID_UTF8), text.subarray(at)]);
  }
  if (r.chance(0.02)) text = Buffer.alloc(r.int(1_048_577, 3 * 1_048_576), 0x20); // over the limit
  return text;
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  '',
];

/** Headers a parser refuses or a service should shrug off. */
function garbageHeaders(r: Rand): Array<[string, string]> {
  return r.pick<Array<[string, string]>>([
    [['X-Bad', 'a\x01b']],
    [['X Bad', 'x']],
    [['X-Big', 'x'.repeat(r.int(8_000, 40_000))]],
    [['Content-Length', 'abc']],
    [['X-Request-Id', 'id with spaces and \x7f']],
    [['X-Request-Id', 'r'.repeat(300)]],
    [['Expect', '100-continue']],
    Array.from({ length: 150 }, (_, i): [string, string] => [`X-H${i}`, 'v']),
    [
      ['Accept', '*/*'],
      ['Accept-Encoding', 'gzip, br'],
    ],
    [
      ['Content-Type', 'application/json'],
      ['Content-Type', 'text/plain'],
    ],
    [['X-Inbound-Token', '\xe9'.repeat(100)]],
  ]);
}

export function buildRequest(r: Rand, w: World, declared: string, path: string, access: Access): FuzzRequest {
  const route = `${declared} ${path}`;
  // Now and then another method on the same path: 405s, HEAD without a body, methods Node does not parse.
  const method = r.chance(0.04)
    ? r.pick(['HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'POST', 'TRACE', 'PROPFIND', 'BREW'])
    : declared;
  // Precise requests are valid but for one field (or one query value), so they reach past every other check.
  const precise = r.chance(0.4);
  const credential = credentialFor(r, access, precise);
  const target =
    fillPath(r, w, path, credential, precise) + (method === 'GET' || r.chance(0.1) ? query(r, w, precise) : '');
  const headers: Array<[string, string]> = [];
  const auth = authorization(r, w, credential);
  if (auth !== undefined) headers.push(['Authorization', auth]);
  if (path.includes('/mcp'))
    headers.push(['Accept', r.chance(0.85) ? 'application/json, text/event-stream' : 'text/html']);
  if (path.startsWith('/v1/inbound'))
    headers.push(['X-Inbound-Token', r.chance(0.6) ? w.inboxToken : randomText(r, 30).replace(/[^\x21-\x7e]/g, 'y')]);
  const body = method !== 'GET' || r.chance(0.04) ? bodyFor(r, w, route, precise) : undefined;
  if (body) {
    const type = precise || r.chance(0.8) ? 'application/json' : r.pick(CONTENT_TYPES);
    if (type) headers.push(['Content-Type', type]);
  }
  if (!precise && r.chance(0.08)) headers.push(...garbageHeaders(r));
  // Small bodies in chunks of any size; bodies over the limit half of the time in 64 KiB chunks (no length up front).
  const chunkSize = !body
    ? undefined
    : body.length > 100_000
      ? r.chance(0.5)
        ? 65_536
        : undefined
      : r.chance(0.2)
        ? r.pick([1, 7, 1_000, 65_536])
        : undefined;
  const summary = `${method} ${target.slice(0, 300)} [${credential}] headers=${headers.map(([n]) => n).join(',')} body=${body?.length ?? 0}B${chunkSize ? ' chunked' : ''}: ${body?.subarray(0, 200).toString('utf8') ?? ''}`;
  return { method, target, headers, body, chunkSize, route, credential, summary };
}
