import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, toolNames } from '../helpers/mcp.js';
import { freePort } from '../helpers/ports.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { spawnChild } from '../helpers/children.js';

// The README's quickstart, run as written: its `quickstart:server` block starts the service (npm start) and its
// `quickstart` blocks run in order in one bash, in a scratch directory (also its TMPDIR), with the base URL and the
// receiver's port replaced by free ones. A signed delivery must reach the README's receiver and pass its signature
// check, the receiver must be stopped when the blocks end, and the MCP client config they write must connect to the
// agent's endpoint. The blocks run twice: the second run is a returning user's, who logs in instead of signing up.
// The client blocks run in the checkout (they call `npx switchboard` and `npm run pack`), with the CLI's config in
// the scratch directory.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README_BASE = 'http://localhost:3000';
const RECEIVER_PORT = /\b4000\b/g;

/** The fenced sh blocks after `<!-- quickstart[:kind] -->` markers, in file order. */
function quickstartBlocks(readme: string): Array<{ kind: string; code: string }> {
  return [...readme.matchAll(/<!-- quickstart(?::(\w+))? -->\n```sh\n([\s\S]*?)```/g)].map((m) => ({
    kind: m[1] ?? 'client',
    code: m[2]!,
  }));
}

/** bash in its own process group (the quickstart leaves its receiver running in the background), output kept. */
function runBash(script: string, opts: { cwd: string; env: Record<string, string> }) {
  const proc = spawnChild('bash', ['-c', script], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, output: () => out, exit };
}

async function stopGroup(proc: ChildProcess | undefined): Promise<void> {
  if (!proc?.pid) return;
  try {
    process.kill(-proc.pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  await waitUntil(
    () => {
      try {
        process.kill(-proc.pid!, 0);
        return false;
      } catch {
        return true;
      }
    },
    30_000,
    'the process group to end',
  ).catch(() => process.kill(-proc.pid!, 'SIGKILL'));
}

let t: TestContext;
let dir: string;
let server: ReturnType<typeof runBash> | undefined;
let client: ReturnType<typeof runBash> | undefined;
const blocks = quickstartBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));

beforeAll(async () => {
  t = await createTestContext();
  dir = mkdtempSync(join(tmpdir(), 'sb-quickstart-'));
}, 300_000);

afterAll(async () => {
  await stopGroup(client?.proc);
  await stopGroup(server?.proc);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the README quickstart', () => {
  it('has one server block and the client steps, and runs every block of the quickstart', () => {
    expect(blocks.filter((b) => b.kind === 'server')).toHaveLength(1);
    expect(blocks.filter((b) => b.kind === 'client').length).toBeGreaterThanOrEqual(3);
    // Every sh block of the section is one of them: none a newcomer would run is left out of the run.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Quickstart'),
      readme.indexOf('\n## ', readme.indexOf('## Quickstart') + 1),
    );
    expect(section.match(/^```sh$/gm)?.length).toBe(blocks.length);
    // The receiver library comes from its tarball, as its README installs it, not from the checkout's node_modules.
    expect(blocks.map((b) => b.code).join('\n')).toContain('npm install --prefix "$QS"');
  });

  it('runs as written, twice: signup then login, a delivery through listen its receiver verifies, an MCP config', async () => {
    const port = await freePort();
    const receiverPort = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { config } = t.deps;
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, LANG: 'C.UTF-8' };

    // npm start, from the checkout, on this test's database, Redis and prefix.
    server = runBash(blocks.find((b) => b.kind === 'server')!.code, {
      cwd: ROOT,
      env: {
        ...env,
        PORT: String(port),
        DATABASE_URL: config.database.url,
        REDIS_URL: config.redis.url,
        BULLMQ_PREFIX: config.bullmqPrefix,
        LOG_FORMAT: 'json',
      },
    });
    await waitUntil(
      async () => {
        if (server!.proc.exitCode !== null) throw new Error(`npm start exited: ${server!.output().slice(-800)}`);
        return fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      120_000,
      'npm start to answer',
    );

    // The banner npm start prints names the dashboard beside the API.
    const banner = await waitUntil(
      () =>
        server!
          .output()
          .split('\n')
          .find((l) => l.includes('switchboard listening')),
      60_000,
      'the banner',
    );
    expect(JSON.parse(banner)).toMatchObject({ dashboard: expect.stringContaining(`:${port}/dashboard`) });

    const script = blocks
      .filter((b) => b.kind === 'client')
      .map((b) => b.code)
      .join('\n')
      .replaceAll(README_BASE, base)
      .replace(RECEIVER_PORT, String(receiverPort));
    writeFileSync(join(dir, 'quickstart.sh'), `set -euo pipefail\n${script}`);
    const runQuickstart = async () => {
      const file = JSON.stringify(join(dir, 'quickstart.sh'));
      client = runBash(`bash ${file}`, { cwd: ROOT, env: { ...env, TMPDIR: dir, XDG_CONFIG_HOME: dir } });
      const code = await client.exit;
      const output = client.output();
      expect(code, `${output}\nnpm start output (end):\n${server!.output().slice(-3000)}`).toBe(0);
      return output;
    };

    for (const run of ['first', 'second']) {
      const output = await runQuickstart();
      // The delivery arrived, signed: the README's receiver verified it (and nothing it refused), then stopped.
      const line = /^verified contact\.created (\{.*\})$/m.exec(output)?.[1];
      expect(line, `${run} run:\n${output}`).toBeDefined();
      // `switchboard trigger`'s sample contact, through `switchboard listen`, signed with the secret it printed.
      expect(JSON.parse(line!)).toMatchObject({ id: expect.stringMatching(/^ct_/) });
      expect(output).toMatch(/^Triggered contact\.created/m);
      expect(output).not.toContain('REJECTED');
      // Its wait loops print nothing while they wait.
      expect(output).not.toContain('curl:');
      await expect(fetch(`http://127.0.0.1:${receiverPort}/`)).rejects.toThrow();
    }

    // The files it wrote are in its temporary directory, not in the working directory.
    const mcpPath = /^MCP client config: (.+)$/m.exec(client!.output())?.[1];
    expect(mcpPath?.startsWith(dir) && mcpPath !== join(dir, 'mcp.json'), client!.output()).toBe(true);

    // As the README says, listen --json wrote the secret, then the delivery with the receiver's 204.
    const listened = readFileSync(join(dirname(mcpPath!), 'listen.log'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(listened.at(-1)!)).toMatchObject({ type: 'delivery', event: 'contact.created', status: 204 });

    // The README's receiver refuses what is not signed with the subscription's secret, and says why.
    const receiverFile = JSON.stringify(join(dirname(mcpPath!), 'receiver.mjs'));
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const receiver = runBash(`exec node ${receiverFile}`, { cwd: dir, env: { ...env, WHSEC: otherSecret } });
    try {
      const up = () =>
        fetch(`http://127.0.0.1:${receiverPort}/`).then(
          (r) => r.status === 204,
          () => false,
        );
      await waitUntil(up, 30_000, 'the receiver to listen');
      const forged = await fetch(`http://127.0.0.1:${receiverPort}/hooks`, {
        method: 'POST',
        headers: {
          'x-switchboard-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
          'x-switchboard-event': 'contact.created',
        },
        body: '{}',
      });
      expect(forged.status).toBe(400);
      await waitUntil(() => receiver.output().includes('REJECTED'), 30_000, 'the receiver to log the refusal');
      expect(receiver.output()).toContain('REJECTED contact.created no_matching_signature');
    } finally {
      await stopGroup(receiver.proc);
    }

    // The MCP client config reaches that agent's endpoint with its per-agent key.
    const mcp = JSON.parse(readFileSync(mcpPath!, 'utf8')).mcpServers['switchboard-agent'];
    expect(mcp.type).toBe('http');
    const url = new URL(mcp.url);
    expect(url.origin).toBe(base);
    expect(url.pathname).toMatch(/^\/v1\/agents\/agt_\w+\/mcp$/);
    expect(mcp.headers.Authorization).toMatch(/^Bearer ca_agt_/);
    const conn = await connectMcp(base, url.pathname, mcp.headers.Authorization.slice('Bearer '.length));
    try {
      expect(await toolNames(conn)).toEqual(['get_agent_activity', 'get_agent_config', 'get_agent_conversations']);
      const result = await conn.client.callTool({ name: 'get_agent_config', arguments: {} });
      expect(result.structuredContent).toMatchObject({ name: 'Support' });
    } finally {
      await conn.close();
    }
  }, 480_000);
});
