import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { runChild, spawnChild } from '../helpers/children.js';
import { client } from '../helpers/http.js';
import { connectMcp } from '../helpers/mcp.js';
import { sdkError } from '../helpers/mcp-events.js';
import { freePort } from '../helpers/ports.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitUntil } from '../helpers/wait.js';

// docs/mcp-events-agent.md, run as written against `npm start` (WEBHOOK_ALLOW_PRIVATE_TARGETS=true, as the guide
// says for webhook mode on a local server): its set-up block (which packs the tarballs and installs
// @switchboard/mcp-events from them into a folder of its own), its `events list` line and its agent, then its
// "Try it" block once per mode, each time a real message received on the agent's inbox and answered by email
// through the REST API. The base URL and the receiver's port are replaced by free ones; nothing else is.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = readFileSync(join(ROOT, 'docs/mcp-events-agent.md'), 'utf8');
const README_BASE = 'http://localhost:3000';
const RECEIVER_PORT = /\b4000\b/g;
const MODES = ['poll', 'stream', 'webhook'] as const;
// What the set-up's npm install needs of this machine's network settings to reach the registry, as a person's shell
// has them.
const NETWORK = Object.fromEntries(
  ['NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy']
    .filter((name) => process.env[name])
    .map((name) => [name, process.env[name]!]),
);

/** The fenced blocks of the guide in a language, in order. */
const blocks = (lang: string) =>
  [...GUIDE.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

interface State {
  agent: string;
  agentKey: string;
  replyKey: string;
  inbox: string;
  ingest: string;
  dir: string;
  token: string;
}

let t: TestContext;
let app: AppProcess;
let scratch: string;
let state: State | undefined;
let port: number;
/** The message the webhook run answered: poll's cursor, saved by the stream run, is before it. */
let answeredByWebhook: string | undefined;

beforeAll(async () => {
  t = await createTestContext();
  scratch = mkdtempSync(join(tmpdir(), 'sb-agent-guide-'));
  const { config } = t.deps;
  app = await startAppProcess('main', {
    cwd: scratch,
    env: {
      DATABASE_URL: config.database.url,
      REDIS_URL: config.redis.url,
      BULLMQ_PREFIX: config.bullmqPrefix,
      LOG_FORMAT: 'json',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  port = await freePort();
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await t?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the MCP Events agent guide', () => {
  it('has a set-up block, an events list line, the agent and a "Try it" block that names every mode', () => {
    expect(blocks('sh')).toHaveLength(3);
    expect(blocks('js')).toHaveLength(1);
    const tryIt = blocks('sh')[2]!;
    expect(tryIt).toContain('node agent.mjs poll');
    expect(tryIt).toContain('# or stream, or PUBLIC_URL=http://127.0.0.1:4000/hooks node agent.mjs webhook');
    expect(GUIDE).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true npm start');
  });

  it('runs as written: in poll, stream and webhook mode the agent answers a message its inbox received', async () => {
    const [setup, list, tryIt] = blocks('sh').map((b) => b.replaceAll(README_BASE, app.url));
    const agent = blocks('js')[0]!.replace(RECEIVER_PORT, String(port));
    const inMode = (mode: (typeof MODES)[number]) => {
      const start = `node agent.mjs ${mode}`;
      const env = mode === 'webhook' ? `PUBLIC_URL=http://127.0.0.1:${port}/hooks ` : '';
      return tryIt!.replace('node agent.mjs poll', `${env}${start}`).replace(RECEIVER_PORT, String(port));
    };
    const stateFile = join(scratch, 'state.json');
    const script = [
      'set -euo pipefail',
      setup,
      'echo "--- list"',
      list,
      `cat > "$AGENT_DIR/agent.mjs" <<'AGENT_EOF'\n${agent}AGENT_EOF`,
      ...MODES.map((mode) => `echo "--- ${mode}"\n${inMode(mode)}`),
      `printf '{"agent":"%s","agentKey":"%s","replyKey":"%s","inbox":"%s","ingest":"%s","dir":"%s","token":"%s"}' \\
        "$AGENT" "$AGENT_KEY" "$REPLY_KEY" "$INBOX" "$INGEST" "$AGENT_DIR" "$TOKEN" > ${JSON.stringify(stateFile)}`,
    ].join('\n');
    const env = {
      ...NETWORK,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? scratch,
      LANG: 'C.UTF-8',
      TMPDIR: scratch,
    };
    const res = await runChild('bash', ['-c', script], { cwd: ROOT, env, capMs: 420_000 });
    const output = `${res.stdout}\n${res.stderr}`;
    expect(res.status, `${output}\nnpm start (end):\n${app.stdout().slice(-3000)}`).toBe(0);
    state = JSON.parse(readFileSync(stateFile, 'utf8')) as State;

    const sections = Object.fromEntries(
      res.stdout
        .split(/^--- /m)
        .slice(1)
        .map((s) => [s.slice(0, s.indexOf('\n')), s]),
    );
    expect(sections.list).toMatch(/^message\.received +\S*poll/m);
    const answered: string[] = [];
    for (const mode of MODES) {
      const section = sections[mode] ?? '';
      expect(section, output).toContain(`listening for message.received (${mode})\n`);
      const id = new RegExp(`^answered (msg_\\w+) from ada@example\\.com \\(${mode}\\)$`, 'm').exec(section)?.[1];
      expect(id, section).toBeDefined();
      // The message the block received on the inbox is the one answered.
      expect(JSON.parse(section.split('\n')[1]!)).toMatchObject({ id, direction: 'inbound', from: 'ada@example.com' });
      answered.push(id!);
    }
    expect(new Set(answered).size).toBe(3);
    answeredByWebhook = answered[2];

    // Each answer is a reply by email to the sender, sent by the worker npm start runs.
    const api = client(app.url);
    const outbound = await waitUntil(
      async () => {
        const { body } = await api.get('/v1/messages?limit=100', { token: state!.token });
        const replies = body.data.filter((m: any) => m.direction === 'outbound');
        return replies.length === 3 && replies.every((m: any) => m.status === 'sent') ? replies : undefined;
      },
      60_000,
      'the three replies to be sent',
    );
    for (const reply of outbound) {
      expect(reply).toMatchObject({ to: 'ada@example.com', subject: 'Re: Where is my order?', inboxId: state.inbox });
      expect(reply.text).toContain('> It has not arrived yet.');
    }

    // Stopping the webhook agent unsubscribed it: the subscription is no longer there to unsubscribe.
    const conn = await connectMcp(app.url, `/v1/agents/${state.agent}/mcp`, state.agentKey);
    try {
      const params = { name: 'message.received', arguments: {}, delivery: { url: `http://127.0.0.1:${port}/hooks` } };
      expect(await sdkError(conn, 'events/unsubscribe', params)).toMatchObject({ code: -32011 });
    } finally {
      await conn.close();
    }
  }, 600_000);

  it('resumes in poll mode after the last message it answered: one received while it was stopped is answered', async () => {
    expect(state, 'the run above').toBeDefined();
    const api = client(app.url);
    const received = await api.post(`/v1/inbound/${state!.inbox}`, {
      headers: { 'x-inbound-token': state!.ingest },
      body: { from: 'grace@example.com', subject: 'Refund', text: 'Sent while the agent was stopped.' },
    });
    expect(received.status).toBeLessThan(300);
    const child = spawnChild('node', ['agent.mjs', 'poll'], {
      cwd: state!.dir,
      env: {
        PATH: process.env.PATH ?? '',
        BASE: app.url,
        MCP_URL: `${app.url}/v1/agents/${state!.agent}/mcp`,
        AGENT_KEY: state!.agentKey,
        REPLY_KEY: state!.replyKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await waitUntil(() => out.includes(received.body.id) || child.exitCode !== null, 60_000, 'the answer');
    child.kill('SIGINT');
    expect(await exited, err).toBe(0);
    // From the stream run's cursor: the message webhook mode answered meanwhile comes again, and the new one.
    const [first, ...answers] = out.trimEnd().split('\n');
    expect(first).toBe('listening for message.received (poll)');
    expect(answers.sort()).toEqual(
      [
        `answered ${answeredByWebhook} from ada@example.com (poll)`,
        `answered ${received.body.id} from grace@example.com (poll)`,
      ].sort(),
    );
    // The second answer to the same event sent nothing twice (its Idempotency-Key is the event's id).
    const replies = await waitUntil(
      async () => {
        const { body } = await api.get('/v1/messages?limit=100', { token: state!.token });
        const sent = body.data.filter((m: any) => m.direction === 'outbound' && m.status === 'sent');
        return sent.some((m: any) => m.to === 'grace@example.com') ? sent : undefined;
      },
      60_000,
      "grace's reply to be sent",
    );
    expect(replies).toHaveLength(4);
  }, 120_000);
});
