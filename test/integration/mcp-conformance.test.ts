import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount } from '../helpers/http.js';
import { createAgent, createAgentKey } from '../helpers/keys.js';
import { freePort } from '../helpers/ports.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { runChild } from '../helpers/children.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance) against the per-agent endpoint. The suite
// speaks to an unauthenticated URL, so a proxy of the test's own adds the agent key and passes everything else
// (Host, Origin, the body, the streamed answer) through untouched.

/** The server scenarios that apply to a tools-only server. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'dns-rebinding-protection'];

/** The suite's other server scenarios, and why they do not apply to Switchboard's MCP endpoints. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'no prompts or resource templates, so nothing to complete',
  'tools-call-simple-text': "calls the suite's own fixture tool (test_simple_text), which a real server does not have",
  'tools-call-image': 'fixture tool; no tool returns images',
  'tools-call-audio': 'fixture tool; no tool returns audio',
  'tools-call-embedded-resource': 'fixture tool; no resources',
  'tools-call-mixed-content': 'fixture tool',
  'tools-call-with-logging': 'fixture tool; no logging capability',
  'tools-call-with-progress': 'fixture tool; tools answer at once, without progress notifications',
  'tools-call-sampling': 'fixture tool; the server never asks the client to sample',
  'tools-call-elicitation': 'fixture tool; the server never elicits input',
  'json-schema-2020-12': 'fixture tool (json_schema_2020_12_tool)',
  'elicitation-sep1034-defaults': 'no elicitation',
  'elicitation-sep1330-enums': 'no elicitation',
  'server-sse-polling': 'stateless endpoint: no standalone GET stream to resume',
  'server-sse-multiple-streams': 'stateless endpoint: no standalone GET stream',
  'resources-list': 'no resources capability',
  'resources-read-text': 'no resources capability',
  'resources-read-binary': 'no resources capability',
  'resources-templates-read': 'no resources capability',
  'resources-subscribe': 'no resources capability',
  'resources-unsubscribe': 'no resources capability',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability',
  'prompts-get-with-args': 'no prompts capability',
  'prompts-get-embedded-resource': 'no prompts capability',
  'prompts-get-with-image': 'no prompts capability',
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let t: TestContext;
let proxy: Server;
let proxyUrl: string;

/** Forwards every request to `target` with the bearer credential added. */
function startCredentialProxy(port: number, target: URL, token: string): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function runScenario(scenario: string, outputDir: string): Promise<void> {
  const bin = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const args = [bin, 'server', '--url', `${proxyUrl}/mcp`, '--scenario', scenario, '-o', outputDir];
  // The exit code says whether every check passed; the checks themselves are read from the output directory.
  await runChild(process.execPath, args);
}

async function runAndRead(scenario: string): Promise<Check[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-conformance-'));
  try {
    await runScenario(scenario, dir);
    return await readChecks(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readChecks(dir: string): Promise<Check[]> {
  const checks: Check[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    if (!entry.endsWith('checks.json')) continue;
    checks.push(...(JSON.parse(await readFile(join(dir, entry), 'utf8')) as Check[]));
  }
  return checks;
}

beforeAll(async () => {
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  // The proxy is where the suite's client stands, so its origin is the one a browser there would send.
  t = await createTestContext({ MCP_ALLOWED_ORIGINS: `${proxyUrl},http://localhost:${port}` });
  const api = client(t.url);
  const owner = await signupAccount(api);
  const agentId = await createAgent(t, owner.accountId, 'Conformance', { autoReply: 'ok' });
  const { key } = await createAgentKey(api, owner.token, agentId, { scopes: ['agent:config:read'] });
  proxy = await startCredentialProxy(port, new URL(`/v1/agents/${agentId}/mcp`, t.url), key);
}, 300_000);
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await t?.close();
});

describe('the official MCP conformance suite, per-agent endpoint', () => {
  it('lists every server scenario of the suite either as applicable or with the reason it does not apply', async () => {
    const bin = join('node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const out = (await runChild(process.execPath, [bin, 'list'])).stdout;
    const serverPart = out.split(/Client scenarios/)[0]!;
    const listed = [...serverPart.matchAll(/^\s+- ([\w-]+)/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((s) => !APPLICABLE.includes(s) && !(s in NOT_APPLICABLE))).toEqual([]);
  });

  // The scenarios are separate processes; run together they take the time of the slowest one.
  const runs = new Map<string, Promise<Check[]>>();
  const checksOf = (scenario: string) => {
    if (!runs.has(scenario)) runs.set(scenario, runAndRead(scenario));
    return runs.get(scenario)!;
  };

  for (const scenario of APPLICABLE) {
    it(`passes ${scenario}`, async () => {
      for (const other of APPLICABLE) void checksOf(other);
      const checks = await checksOf(scenario);
      expect(checks.length).toBeGreaterThan(0);
      const failed = checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage}`);
      expect(failed).toEqual([]);
    }, 300_000);
  }
});
