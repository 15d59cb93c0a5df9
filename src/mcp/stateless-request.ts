import type { IncomingHttpHeaders } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { text } from '../platform/input.js';

// Reading one request of the stateless MCP revision (2026-07-28) off HTTP: which era it speaks, and whether its
// envelope, headers and `_meta` are what the revision requires. Every rule cites the section it comes from;
// docs/mcp-2026.md says what was read where, and what was decided where the pages are silent.

export const STATELESS_VERSION = '2026-07-28';
/** Every version either era answers: the stateless one, then the initialize era's (the SDK's list). */
export const SERVED_VERSIONS: string[] = [STATELESS_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

// https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes
// JSON-RPC's own codes, and the three the revision defines.
export const rpcCode = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  headerMismatch: -32020,
  unsupportedVersion: -32022,
} as const;

export type RequestId = string | number;

/** What the endpoint answers: an HTTP status and a JSON-RPC message (an error may have no id). */
export interface RpcAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface StatelessRequest {
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
}

export type ReadResult = { ok: true; request: StatelessRequest } | { ok: false; answer: RpcAnswer };

export function rpcError(status: number, id: RequestId | undefined, code: number, message: string, data?: unknown) {
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  const answer: RpcAnswer = { status, body: { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error } };
  return answer;
}

// https://modelcontextprotocol.io/specification/2026-07-28/basic/index#requests
// A string or integer id, never null.
const requestId = z.union([text(), z.number().int()]);
const envelope = z.object({
  jsonrpc: z.literal('2.0'),
  method: text(),
  id: z.unknown().optional(),
  params: z.record(text(), z.unknown()).optional(),
});
// https://modelcontextprotocol.io/specification/2026-07-28/basic/index#meta ("Per-request protocol fields")
// The version and the client capabilities are required, clientInfo is optional.
const requestMeta = z.object({
  [META_VERSION]: text(),
  [META_CAPABILITIES]: z.record(text(), z.unknown()),
  [META_CLIENT]: z.looseObject({ name: text(), version: text() }).optional(),
});

// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress
const progressToken = z.union([text(), z.number().int()]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function metaVersionOf(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body.params) || !isRecord(body.params._meta)) return undefined;
  return body.params._meta[META_VERSION];
}

/**
 * Which era a POST speaks. A body carrying the per-request `_meta` version, or an `MCP-Protocol-Version` the
 * initialize era does not know, is the stateless revision's; everything else (an initialize, or a header naming
 * a negotiated legacy version) stays with the SDK as before. An unknown version thus gets the revision's
 * UnsupportedProtocolVersionError, which lists both eras' versions.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#compatibility-matrix
 * ("A dual-era server selects its behavior from how the client opens")
 */
export function isStatelessRequest(headers: IncomingHttpHeaders, body: unknown): boolean {
  if (metaVersionOf(body) !== undefined) return true;
  const version = header(headers, 'mcp-protocol-version');
  return version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#value-encoding
// `=?base64?…?=` carries a value that is unsafe as a plain header; it is decoded before comparing.
function decodeHeaderValue(value: string): string {
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  return encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : value;
}

// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#standard-request-headers
// Mcp-Name mirrors params.name or params.uri on these methods.
const NAMED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

const invalidRequest = (message: string) =>
  rpcError(400, undefined, rpcCode.invalidRequest, `Invalid Request: ${message}`);
const mismatch = (id: RequestId, message: string) =>
  rpcError(400, id, rpcCode.headerMismatch, `Header mismatch: ${message}`);
const differs = (name: string, headerValue: string, where: string, bodyValue: unknown) =>
  `${name} header value '${headerValue}' does not match ${where} value '${String(bodyValue)}'`;

/** Validates a stateless request, in the order its rules apply; nothing has run when it answers an error. */
export function readStatelessRequest(headers: IncomingHttpHeaders, body: unknown): ReadResult {
  const fail = (answer: RpcAnswer): ReadResult => ({ ok: false, answer });

  // https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#sending-messages
  // The body MUST be a single request or notification; a batch (removed in 2025-06-18) is not one, which
  // JSON-RPC 2.0 calls an Invalid Request.
  if (Array.isArray(body)) return fail(invalidRequest('send one JSON-RPC message per POST, not a batch'));
  const parsed = envelope.safeParse(body);
  if (!parsed.success) return fail(invalidRequest('the body is not a JSON-RPC 2.0 request'));
  const message = parsed.data;
  if (!isRecord(body) || !('id' in body)) {
    // Same section: a notification the server cannot accept gets an HTTP error status, with a JSON-RPC error
    // without id; this revision defines no client-to-server notifications over Streamable HTTP.
    return fail(invalidRequest('this revision accepts no notifications over HTTP'));
  }
  const parsedId = requestId.safeParse(message.id);
  if (!parsedId.success) return fail(invalidRequest('the id must be a string or an integer'));
  const id = parsedId.data;

  // https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#protocol-version-header
  // The header is required and MUST match `_meta` (HeaderMismatch); a version the server does not implement gets
  // UnsupportedProtocolVersionError listing the supported ones, both with 400.
  const version = header(headers, 'mcp-protocol-version');
  if (version === undefined) return fail(mismatch(id, 'the MCP-Protocol-Version header is required'));
  const metaVersion = metaVersionOf(body);
  if (metaVersion !== undefined && metaVersion !== version) {
    return fail(mismatch(id, differs('MCP-Protocol-Version', version, '_meta', metaVersion)));
  }
  if (version !== STATELESS_VERSION) {
    const data = { supported: SERVED_VERSIONS, requested: version };
    return fail(rpcError(400, id, rpcCode.unsupportedVersion, 'Unsupported protocol version', data));
  }

  // https://modelcontextprotocol.io/specification/2026-07-28/basic/index#meta
  // A request missing a required `_meta` field is malformed: Invalid params, with 400 on HTTP.
  const params = message.params ?? {};
  const meta = requestMeta.safeParse(params._meta);
  if (!meta.success) {
    const message = `Invalid params: _meta must carry ${META_VERSION} and ${META_CAPABILITIES}`;
    return fail(rpcError(400, id, rpcCode.invalidParams, message));
  }

  // https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress#progress-flow
  // "Progress tokens **MUST** be a string or integer value": any other value is malformed `_meta`, answered as a
  // missing field is. The SDK server drops a request whose token it cannot parse and never answers it.
  const rawMeta = params._meta as Record<string, unknown>;
  if ('progressToken' in rawMeta && !progressToken.safeParse(rawMeta.progressToken).success) {
    const message = 'Invalid params: _meta.progressToken must be a string or an integer';
    return fail(rpcError(400, id, rpcCode.invalidParams, message));
  }

  // https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation
  // Mcp-Method (and Mcp-Name where it applies) are required and MUST equal the body's values, compared
  // case-sensitively.
  const method = header(headers, 'mcp-method');
  if (method === undefined) return fail(mismatch(id, 'the Mcp-Method header is required'));
  if (method !== message.method) return fail(mismatch(id, differs('Mcp-Method', method, 'body', message.method)));
  if (NAMED_METHODS.has(message.method)) {
    const name = header(headers, 'mcp-name');
    const bodyName = params.name ?? params.uri;
    if (name === undefined) return fail(mismatch(id, 'the Mcp-Name header is required'));
    if (decodeHeaderValue(name) !== bodyName) return fail(mismatch(id, differs('Mcp-Name', name, 'body', bodyName)));
  }

  const client = meta.data[META_CLIENT] ?? { name: 'unnamed-client', version: '0' };
  const clientInfo = { name: client.name, version: client.version };
  const clientCapabilities = meta.data[META_CAPABILITIES];
  return { ok: true, request: { id, method: message.method, params, clientCapabilities, clientInfo } };
}
