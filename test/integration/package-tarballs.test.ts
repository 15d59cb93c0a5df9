import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, workspacePackages } from '../../scripts/pack.js';
import { client } from '../helpers/http.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { verifySwitchboardSignature } from '../helpers/webhook-verify.js';
import { killHard, spawnWorkerProcess, type WorkerChild } from '../helpers/worker-child.js';
import { runChild, spawnChild } from '../helpers/children.js';
import { startEventsServer } from '../helpers/events-server.js';
import { waitUntil } from '../helpers/wait.js';

// The packages as integrators get them: `npm run pack` (scripts/pack.ts) builds the tarball of every package under
// packages/, each package's README install line is run as written (the tarball path put where it says
// /path/to/switchboard) in an empty folder of its own, and the installed package is used as its README shows, with
// plain node and nothing of the repository, against the service on 127.0.0.1.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Runs a command to its end in a group of its own; a failure throws with what it printed. */
async function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const res = await runChild(command, args, { ...opts, capMs: 300_000 });
  if (res.status !== 0) throw new Error(`${command} ${args[0]} exited ${res.status ?? res.signal}: ${res.stderr}`);
  return res;
}
// npm and the bin's `#!/usr/bin/env node` find this node first.
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
const CHECKOUT = '/path/to/switchboard';

let t: TestContext;
let worker: WorkerChild | undefined;
let receiver: Receiver;
let owner: SetupAccount & { accountKey: { key: string } };
const packed = mkdtempSync(join(tmpdir(), 'sb-pack-'));
const scratch = mkdtempSync(join(tmpdir(), 'sb-install-'));
const live: CliProcess[] = [];

const readme = (pkg: string) => readFileSync(join(ROOT, 'packages', pkg, 'README.md'), 'utf8');
/** The fenced blocks of a README in a language, in order. */
const blocks = (text: string, lang: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

/**
 * The README's `npm install …` line run in an empty folder with bash (a global install under that folder as its
 * prefix); the folder.
 */
async function installAsDocumented(pkg: string): Promise<string> {
  const line = blocks(readme(pkg), 'sh')
    .flatMap((b) => b.split('\n'))
    .find((l) => l.startsWith('npm install '));
  expect(line, `packages/${pkg}/README.md names no npm install line`).toBeDefined();
  expect(line).toContain(`${CHECKOUT}/tarballs/`);
  const dir = mkdtempSync(join(scratch, `${pkg}-`));
  const global = line!.includes('--global') ? ` --prefix ${JSON.stringify(dir)}` : '';
  const command = `${line!.replaceAll(`${CHECKOUT}/tarballs`, packed)}${global} --no-audit --no-fund`;
  await run('bash', ['-c', command], { cwd: dir, env: { ...process.env, PATH } });
  return dir;
}

const tarballFiles = async (name: string) =>
  (await run('tar', ['-tzf', join(packed, name)])).stdout.trim().split('\n').sort();

/** Type-checks `source` in `dir` as a consumer would, under NodeNext and bundler resolution, with DOM globals only. */
function typeErrors(dir: string, source: string): string[] {
  const file = join(dir, 'consumer.ts');
  writeFileSync(file, source);
  return [
    [ts.ModuleKind.NodeNext, ts.ModuleResolutionKind.NodeNext],
    [ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler],
  ].flatMap(([module, moduleResolution]) => {
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
      types: [],
      module: module as ts.ModuleKind,
      moduleResolution: moduleResolution as ts.ModuleResolutionKind,
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  });
}

beforeAll(async () => {
  const tarballs = packAll(packed).map((f) => f.slice(packed.length + 1));
  const expected = workspacePackages().map((n) => `${n.replace(/^@/, '').replace('/', '-')}-0.1.0.tgz`);
  expect(tarballs.sort()).toEqual(expected.sort());
  expect(readdirSync(join(ROOT, 'packages')).length).toBe(expected.length);

  const settings = { WEBHOOK_RETRY_DELAYS_MS: '300' };
  t = await createTestContext(settings);
  worker = spawnWorkerProcess(t, settings);
  await worker.ready;
  receiver = await startReceiver(() => ({ status: 204 }));
  owner = await setupAccount(t, { accountKey: { name: 'packages', scopes: ['read:webhooks', 'write:webhooks'] } });
}, 300_000);

afterAll(async () => {
  for (const cli of live) cli.proc.kill('SIGKILL');
  if (worker) await killHard(worker.proc);
  await receiver?.close();
  await t?.close();
  rmSync(packed, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('the @switchboard/client tarball', () => {
  let dir: string;
  // A service of its own, with no worker: the README's subscription points at example.com, which nothing here
  // may try to reach.
  let bare: TestContext;
  let user: SetupAccount & { accountKey: { key: string } };
  beforeAll(async () => {
    dir = await installAsDocumented('client');
    bare = await createTestContext();
    user = await setupAccount(bare, { accountKey: { name: 'client', scopes: ['read:webhooks', 'write:webhooks'] } });
  }, 300_000);
  afterAll(() => bare?.close());

  it('holds the built JavaScript and its declarations only, and depends on nothing', async () => {
    const files = await tarballFiles('switchboard-client-0.1.0.tgz');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    for (const file of files) expect(file).toMatch(/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@switchboard/client/package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it("runs its README's opening lines as written: a subscription, a test event, its deliveries", async () => {
    const [example] = blocks(readme('client'), 'js');
    expect(example!.trim().split('\n')).toHaveLength(5);
    writeFileSync(join(dir, 'example.mjs'), example!);
    const env = { PATH, SWITCHBOARD_URL: bare.url, SWITCHBOARD_API_KEY: user.accountKey.key };
    const { stdout, stderr } = await run(process.execPath, ['example.mjs'], { cwd: dir, env });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^webhook\.test pending [0-9a-f-]{36}\n$/);
    const deliveryId = stdout.trim().split(' ')[2]!;
    const api = client(bare.url);
    const token = user.accountKey.key;
    const hooks = await api.get('/v1/webhooks', { token });
    const made = hooks.body.data.find((w: { url: string }) => w.url === 'https://example.com/hooks');
    const listed = await api.get(`/v1/webhooks/${made.id}/deliveries/${deliveryId}`, { token });
    expect(listed.body).toMatchObject({ event: 'webhook.test', webhookId: made.id });
  });

  it('type-checks a consumer against its declarations, with no Node types', () => {
    const source = `import { createClient, paginate, SwitchboardError, type ResultOf } from '@switchboard/client';
const sb = createClient({ baseUrl: 'https://switchboard.example.com', token: 'ca_acct_x' });
export async function flow(): Promise<string[]> {
  const hook: ResultOf<'createWebhook'> = await sb.createWebhook({ body: { url: 'https://x.example', events: ['contact.created'] } });
  const ids: string[] = [];
  for await (const d of paginate(sb.listWebhookDeliveries, { path: { webhookId: hook.id } })) ids.push(d.id);
  // @ts-expect-error not an event type
  await sb.createWebhook({ body: { url: 'https://x.example', events: ['contact.made'] } });
  try { await sb.getAccount(); } catch (e) { if (e instanceof SwitchboardError) ids.push(e.code, String(e.status)); }
  return ids;
}
`;
    expect(typeErrors(dir, source)).toEqual([]);
  });
});

describe('the @switchboard/webhooks tarball', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await installAsDocumented('webhooks');
  }, 300_000);

  it('holds the built JavaScript, its declarations, the README and package.json, and depends on nothing', async () => {
    const files = await tarballFiles('switchboard-webhooks-0.1.0.tgz');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    for (const file of files) expect(file).toMatch(/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@switchboard/webhooks/package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it('type-checks a consumer against its declarations, under NodeNext and bundler resolution', () => {
    const source = `import { verify, type WebhookEnvelope, type VerificationFailure, type HeadersLike } from '@switchboard/webhooks';
const headers: HeadersLike = { 'webhook-id': 'x' };
export const envelope: Promise<WebhookEnvelope> = verify(new Uint8Array(), headers, ['whsec_a', 'whpk_b']);
export const reason: VerificationFailure = 'outside_tolerance';
// @ts-expect-error not a reason
export const wrong: VerificationFailure = 'expired';
`;
    expect(typeErrors(dir, source)).toEqual([]);
  });
});

describe('the @switchboard/mcp-events tarball', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await installAsDocumented('mcp-events');
  }, 300_000);

  it('holds the built JavaScript and its declarations only, and depends on the MCP SDK, zod and the receiver library', async () => {
    const files = await tarballFiles('switchboard-mcp-events-0.1.0.tgz');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    for (const file of files) expect(file).toMatch(/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@switchboard/mcp-events/package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@modelcontextprotocol/sdk',
      '@switchboard/webhooks',
      'zod',
    ]);
  });

  it("runs its README's poll loop as written against an MCP server speaking the Events extension, until Ctrl-C", async () => {
    const server = await startEventsServer();
    try {
      const events = [server.emit('message.received', { n: 1 }), server.emit('message.received', { n: 2 })];
      writeFileSync(join(dir, 'cursors.json'), JSON.stringify({ 'message.received {}': 'c0' }));
      writeFileSync(join(dir, 'example.mjs'), blocks(readme('mcp-events'), 'js')[0]!);
      const child = spawnChild(process.execPath, ['example.mjs'], {
        cwd: dir,
        env: { PATH, MCP_URL: server.url, MCP_TOKEN: 'fixture-token' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      await waitUntil(() => out.split('\n').length > events.length || child.exitCode !== null, 60_000, 'the events');
      child.kill('SIGINT');
      expect(await exited, err).toBe(0);
      expect(out).toBe(events.map((e) => `message.received ${e.eventId}\n`).join(''));
      expect(JSON.parse(readFileSync(join(dir, 'cursors.json'), 'utf8'))).toEqual({ 'message.received {}': 'c2' });
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('the @switchboard/cli tarball', () => {
  let prefix: string;
  /** The installed bin, run with plain node through the link npm made. */
  let installed: string[];
  beforeAll(async () => {
    prefix = await installAsDocumented('cli');
    installed = [join(prefix, 'bin', 'switchboard')];
  }, 300_000);

  it('holds the compiled CLI and its bin only: no service, tests or TypeScript sources', async () => {
    const files = await tarballFiles('switchboard-cli-0.1.0.tgz');
    expect(files).toContain('package/bin/switchboard.js');
    expect(files).toContain('package/dist/main.js');
    for (const file of files) expect(file).toMatch(/^package\/(package\.json|README\.md|bin\/[^/]+\.js|dist\/.+\.js)$/);
    const cli = join(prefix, 'lib', 'node_modules', '@switchboard', 'cli');
    expect(readdirSync(cli).sort()).toEqual(['README.md', 'bin', 'dist', 'node_modules', 'package.json']);
  });

  it("runs --help and a listen against the service; the receiver library's README verifies what arrived", async () => {
    const help = await runCli(['--help'], {}, '', installed);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: switchboard /);
    expect(help.stdout).toContain('listen [options]');

    const env = { SWITCHBOARD_URL: t.url, SWITCHBOARD_API_KEY: owner.accountKey.key };
    const cli = startCli(['--json', 'listen', '--forward-to', `${receiver.url}/hooks`], env, installed);
    live.push(cli);
    const opened = await cli.waitForJson((l) => l.type === 'opened');
    const triggered = await runCli(['--json', 'trigger', 'contact.created'], env, '', installed);
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(JSON.parse(triggered.stdout).deliveryIds).toHaveLength(1);
    const [arrived] = await receiver.waitFor(1);
    expect(arrived!.path).toBe('/hooks');
    expect(verifySwitchboardSignature(arrived!, opened.secret)).toBe(true);
    const forwarded = await cli.waitForJson((l) => l.type === 'delivery');
    expect(forwarded).toMatchObject({ status: 204, signature: 'verified', deliveryId: arrived!.body.id });
    cli.proc.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toBe('');

    // The receiver library's "Verify" block, as written, over that delivery's raw body and headers, from the
    // library the CLI's install brought along.
    const verifyBlock = blocks(readme('webhooks'), 'js')[0]!;
    const program = `const rawBody = ${JSON.stringify(arrived!.raw)};
const headers = ${JSON.stringify(arrived!.headers)};
${verifyBlock.replace('// envelope: {', 'console.log(JSON.stringify(envelope)); // {')}`;
    const cliModules = join(prefix, 'lib', 'node_modules', '@switchboard', 'cli');
    writeFileSync(join(cliModules, 'verify-example.mjs'), program);
    const verified = await run(process.execPath, ['verify-example.mjs'], {
      cwd: cliModules,
      env: { PATH, SWITCHBOARD_WEBHOOK_SECRET: opened.secret },
    });
    expect(JSON.parse(verified.stdout)).toMatchObject({ id: arrived!.body.id, event: 'contact.created' });
  }, 300_000);
});
