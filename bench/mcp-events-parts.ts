import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../src/app/deps.js';
import type { SessionPrincipal } from '../src/auth/principal.js';
import { createAccountKey } from '../src/keys/keys.service.js';
import { startAppProcess, type AppProcess } from '../test/helpers/app-process.js';
import { machineCpuMs, processCpuMs, serviceEnv } from './webhook-helpers.js';

// The parts of the MCP Events benchmark (bench/mcp-events.bench.ts): the service as one web and one worker
// process, the CPU of those processes and of the Postgres backends serving the bench's database, one HTTP receiver
// for both kinds of webhook (it answers the verification handshake), and events/stream consumers over raw SSE in
// the stateless era. Every consumer reports an arrival as (consumer, payload n) to the same callback, so each side
// costs the bench the same: a JSON.parse and a counter.

export const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'events-bench', version: '1.0.0' },
};

export type Arrival = (consumer: string, n: number) => void;

export interface Service {
  web: AppProcess;
  worker: AppProcess;
  stop(): Promise<void>;
}

/**
 * BENCH_EVENTS_PROFILE_DIR: each service process writes a V8 CPU profile there when it exits (read with
 * bench/profile-top.ts).
 */
const profiled = (): Record<string, string> => {
  const dir = process.env.BENCH_EVENTS_PROFILE_DIR;
  return dir ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${dir}`.trim() } : {};
};

/** src/web.ts and src/worker.ts as the Procfile runs them, on the bench's database and prefix. */
export async function startService(deps: Deps): Promise<Service> {
  const env = Object.fromEntries(
    Object.entries(
      serviceEnv(deps.config, { NODE_ENV: 'production', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...profiled() }),
    ).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const [web, worker] = await Promise.all([
    startAppProcess('web', { cwd: process.cwd(), env }),
    startAppProcess('worker', { cwd: process.cwd(), env }),
  ]);
  return { web, worker, stop: async () => void (await Promise.all([web.stop(), worker.stop()])) };
}

/** CPU so far (ms) of the web and worker processes, of the Postgres backends by role, and of the machine. */
export interface CpuSample {
  web: number;
  worker: number;
  /** Per backend pid: its role (application_name) and CPU so far. */
  backends: Map<number, { role: 'pgWeb' | 'pgWorker' | 'pgCommit'; ms: number }>;
  machine: number;
}

export async function sampleCpu(deps: Deps, service: Service): Promise<CpuSample> {
  const { rows } = await deps.db.raw<{ rows: Array<{ pid: number; application_name: string }> }>(
    `SELECT pid, application_name FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`,
  );
  const backends: CpuSample['backends'] = new Map();
  for (const r of rows) {
    const ms = processCpuMs(r.pid);
    if (ms !== null) backends.set(r.pid, { role: roleOf(r.application_name), ms });
  }
  return {
    web: processCpuMs(service.web.proc.pid!) ?? 0,
    worker: processCpuMs(service.worker.proc.pid!) ?? 0,
    backends,
    machine: machineCpuMs() ?? 0,
  };
}

const roleOf = (name: string): 'pgWeb' | 'pgWorker' | 'pgCommit' =>
  name === 'switchboard-api' ? 'pgWeb' : name === 'switchboard-workers' ? 'pgWorker' : 'pgCommit';

/**
 * CPU ms between two samples, by part. A backend counts from its first sample (0 when it started in between); one
 * that ended in between is lost, and counted in `backendsLost`. pgCommit is the bench's own pool (this query's
 * connection included, autovacuum left out): the commits (with the webhooks' fan-out at commit) and the bench's few
 * reads of pg_stat_activity.
 */
export function cpuBetween(a: CpuSample, b: CpuSample) {
  const pg = { pgWeb: 0, pgWorker: 0, pgCommit: 0 };
  for (const [pid, { role, ms }] of b.backends) pg[role] += ms - (a.backends.get(pid)?.ms ?? 0);
  const backendsLost = [...a.backends.keys()].filter((pid) => !b.backends.has(pid)).length;
  const web = b.web - a.web;
  const worker = b.worker - a.worker;
  const service = web + worker + pg.pgWeb + pg.pgWorker + pg.pgCommit;
  return { service, web, worker, ...pg, machine: b.machine - a.machine, backendsLost };
}

/** Resident set of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** An account key with the scope message.received needs on /v1/mcp. */
export async function readKey(deps: Deps, principal: SessionPrincipal, n: number): Promise<string> {
  const caller = { principal, ip: null };
  return (await createAccountKey(deps, caller, { name: `events bench ${n}`, scopes: ['read:messages'] })).secret;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

/**
 * One receiver for both webhook sides: POST /<consumer> is an arrival of payload.n (an ordinary envelope) or
 * data.n (an MCP EventOccurrence); a verification body is answered with its challenge.
 */
export async function startWebhookReceiver(arrived: Arrival): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        const body = JSON.parse(text) as { type?: string; challenge?: string; payload?: any; data?: any };
        if (body.type === 'verification') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ challenge: body.challenge }));
          return;
        }
        const n = body.payload?.n ?? body.data?.n;
        if (typeof n === 'number') arrived(req.url!.slice(1), n);
        res.writeHead(200).end();
      },
      () => res.writeHead(400).end(),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A stateless-era POST to /v1/mcp and its JSON-RPC answer (JSON, or the last frame of an SSE answer). */
export async function statelessCall(webUrl: string, token: string, method: string, params: Record<string, unknown>) {
  const res = await fetch(`${webUrl}/v1/mcp`, {
    method: 'POST',
    headers: headersFor(token, method),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: STATELESS_META } }),
  });
  const text = await res.text();
  const json = text.startsWith('{') ? text : (text.split('data: ').pop() ?? '');
  return JSON.parse(json) as { result?: any; error?: { code: number; message: string; data?: unknown } };
}

const headersFor = (token: string, method: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
});

/** A webhook secret as the package generates one: whsec_ and the base64 of 32 random bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface OpenStream {
  heartbeats: number;
  close(): void;
}

/**
 * One events/stream for message.received on /v1/mcp over its own connection; resolves once
 * notifications/events/active has arrived. Each event is an arrival of data.n for `consumer`.
 */
export function openStream(webUrl: string, token: string, consumer: string, arrived: Arrival): Promise<OpenStream> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: consumer,
    method: 'events/stream',
    params: { name: 'message.received', _meta: STATELESS_META },
  });
  return new Promise((resolve, reject) => {
    const req = request(`${webUrl}/v1/mcp`, {
      method: 'POST',
      headers: headersFor(token, 'events/stream'),
      agent: false,
    });
    const stream: OpenStream = { heartbeats: 0, close: () => req.destroy() };
    req.on('error', reject);
    req.on('response', (res) => {
      if (!res.headers['content-type']?.includes('text/event-stream')) {
        void readBody(res).then((t) => reject(new Error(`events/stream ${res.statusCode}: ${t.slice(0, 300)}`)));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const m = JSON.parse(data.slice(6)) as { method?: string; params?: any };
          if (m.method === 'notifications/events/event') arrived(consumer, m.params.data.n);
          else if (m.method === 'notifications/events/heartbeat') stream.heartbeats++;
          else if (m.method === 'notifications/events/active') resolve(stream);
          else reject(new Error(`events/stream: ${data.slice(0, 300)}`));
        }
      });
      res.on('error', () => undefined);
    });
    req.end(body);
  });
}
