import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { verifySwitchboardSignature } from '../helpers/webhook-verify.js';
import { killHard, spawnWorkerProcess, type WorkerChild } from '../helpers/worker-child.js';
import { runChild } from '../helpers/children.js';

// The CLI as integrators get it (docs/adr/0086-the-cli-package.md): `npm pack` of @switchboard/cli and of the
// receiver library it depends on, both tarballs installed into an empty folder (commander and openapi-fetch from
// the registry), then the installed `switchboard` run with plain node against the service on 127.0.0.1.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Runs a command to its end in a group of its own; a failure throws with what it printed. */
async function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const res = await runChild(command, args, opts);
  if (res.status !== 0) throw new Error(`${command} ${args[0]} exited ${res.status ?? res.signal}: ${res.stderr}`);
  return res;
}
// npm and the bin's `#!/usr/bin/env node` find this node first.
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund'], { cwd, env: { ...process.env, PATH } });

let t: TestContext;
let worker: WorkerChild | undefined;
let receiver: Receiver;
let owner: SetupAccount & { accountKey: { key: string } };
const packed = mkdtempSync(join(tmpdir(), 'sb-pack-'));
const installed = mkdtempSync(join(tmpdir(), 'sb-install-'));
/** node <the installed bin>, through the link npm made in node_modules/.bin. */
const INSTALLED = [join(installed, 'node_modules', '.bin', 'switchboard')];
const live: CliProcess[] = [];

beforeAll(async () => {
  await npm(['pack', '-w', '@switchboard/webhooks', '-w', '@switchboard/cli', '--pack-destination', packed], ROOT);
  const tarballs = readdirSync(packed).map((name) => join(packed, name));
  expect(tarballs.map((f) => f.slice(packed.length + 1)).sort()).toEqual([
    'switchboard-cli-0.1.0.tgz',
    'switchboard-webhooks-0.1.0.tgz',
  ]);
  expect(readdirSync(installed)).toEqual([]);
  await npm(['install', ...tarballs], installed);

  const settings = { WEBHOOK_RETRY_DELAYS_MS: '300' };
  t = await createTestContext(settings);
  worker = spawnWorkerProcess(t, settings);
  await worker.ready;
  receiver = await startReceiver(() => ({ status: 204 }));
  owner = await setupAccount(t, { accountKey: { name: 'cli', scopes: ['read:webhooks', 'write:webhooks'] } });
}, 300_000);

afterAll(async () => {
  for (const cli of live) cli.proc.kill('SIGKILL');
  if (worker) await killHard(worker.proc);
  await receiver?.close();
  await t?.close();
  rmSync(packed, { recursive: true, force: true });
  rmSync(installed, { recursive: true, force: true });
});

describe('the @switchboard/cli tarball', () => {
  it('holds the compiled CLI and its bin only: no service, tests or TypeScript sources', async () => {
    const { stdout } = await run('tar', ['-tzf', join(packed, 'switchboard-cli-0.1.0.tgz')]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toContain('package/bin/switchboard.js');
    expect(files).toContain('package/dist/main.js');
    for (const file of files) expect(file).toMatch(/^package\/(package\.json|README\.md|bin\/[^/]+\.js|dist\/.+\.js)$/);
    const installedCli = readdirSync(join(installed, 'node_modules', '@switchboard', 'cli'));
    expect(installedCli.sort()).toEqual(['README.md', 'bin', 'dist', 'package.json']);
  });

  it('installed into an empty folder, runs --help and a listen against the service', async () => {
    const help = await runCli(['--help'], {}, '', INSTALLED);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: switchboard /);
    expect(help.stdout).toContain('listen [options]');

    const env = { SWITCHBOARD_URL: t.url, SWITCHBOARD_API_KEY: owner.accountKey.key };
    const cli = startCli(['--json', 'listen', '--forward-to', `${receiver.url}/hooks`], env, INSTALLED);
    live.push(cli);
    const opened = await cli.waitForJson((l) => l.type === 'opened');
    const triggered = await runCli(['--json', 'trigger', 'contact.created'], env, '', INSTALLED);
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
  }, 300_000);
});
