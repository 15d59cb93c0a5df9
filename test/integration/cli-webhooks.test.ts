import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// `switchboard webhooks create` as a person reads it (the secret first, once, saying so; no null fields), and
// `switchboard poll`, which reads a poll subscription and commits its cursor.

let t: TestContext;
let owner: SetupAccount & { accountKey: { key: string } };
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestContext();
  owner = await setupAccount(t, { accountKey: { name: 'cli', scopes: ['read:webhooks', 'write:webhooks'] } });
  env = { SWITCHBOARD_URL: t.url, SWITCHBOARD_API_KEY: owner.accountKey.key };
});
afterAll(() => t?.close());

describe('switchboard webhooks create', () => {
  it('prints the signing secret first, once, saying it is shown once, and leaves out the fields that are null', async () => {
    const made = await runCli(['webhooks', 'create', 'https://example.com/hooks', '--events', 'contact.created'], env);
    expect(made.code, made.stderr).toBe(0);
    const lines = made.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Signing secret \(shown once: store it now\): whsec_[A-Za-z0-9+/=]+$/);
    expect(lines[1]).toBe('');
    const secret = lines[0]!.split(': ')[1]!;
    expect(made.stdout.split(secret)).toHaveLength(2);
    expect(made.stdout).not.toMatch(/\bnull\b/);
    expect(lines.slice(2).map((l) => l.split(':')[0])).toEqual(
      expect.arrayContaining(['id', 'kind', 'url', 'events', 'status', 'signatureScheme', 'createdAt']),
    );
    expect(made.stdout).not.toMatch(/^(secret|pollCredential|publicKey|exchange|subject|tenant):/m);

    // --json keeps the API's answer as it is, nulls included.
    const json = await runCli(
      ['--json', 'webhooks', 'create', 'https://example.com/b', '--events', 'contact.created'],
      env,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ secret: expect.stringMatching(/^whsec_/), exchange: null });
  });

  it('prints a poll subscription its secret and its poll credential first, each once', async () => {
    const made = await runCli(['webhooks', 'create', '--kind', 'poll', '--events', 'contact.created'], env);
    expect(made.code, made.stderr).toBe(0);
    const [first, second] = made.stdout.split('\n');
    expect(first).toMatch(/^Signing secret \(shown once: store it now\): whsec_/);
    expect(second).toMatch(/^Poll credential \(shown once: store it now\): whpoll_/);
  });

  it('creates a kind it has no flags for with --setting, and refuses a --setting that is not name=value', async () => {
    const url = 'rediss://publisher:cli-redis-password-6a1f@93.184.216.34:6380/0';
    const made = await runCli(
      ['--json', 'webhooks', 'create', url, '--kind', 'redis', '--events', 'contact.created'].concat([
        '--setting',
        'streamKey=switchboard:{event}',
        '--setting',
        'maxLength=500',
      ]),
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ kind: 'redis', streamKey: 'switchboard:{event}', maxLength: 500 });
    expect(made.stdout).not.toContain('cli-redis-password-6a1f');
    const bad = await runCli(
      ['webhooks', 'create', url, '--kind', 'redis', '--events', 'contact.created', '--setting', 'x'],
      env,
    );
    expect(bad.code).toBe(2);
  });
});

describe('switchboard poll', () => {
  it('reads the deliveries after the committed cursor and, with --commit, moves it past them', async () => {
    const made = JSON.parse(
      (await runCli(['--json', 'webhooks', 'create', '--kind', 'poll', '--events', 'contact.created'], env)).stdout,
    );
    for (let i = 0; i < 2; i++) expect((await runCli(['trigger', 'contact.created'], env)).code).toBe(0);

    const peek = await runCli(['--json', 'poll', made.id], env);
    expect(peek.code, peek.stderr).toBe(0);
    const peeked = peek.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(peeked.map((l) => l.type)).toEqual(['delivery', 'delivery', 'cursor']);
    expect(peeked[0]).toMatchObject({ event: 'contact.created', envelope: { event: 'contact.created' } });
    expect(peeked[0].headers['webhook-signature']).toMatch(/^v1,/);
    expect(peeked[2]).toMatchObject({ committed: false, hasMore: false });

    const human = await runCli(['poll', made.id, '--commit'], env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^→ contact\.created +[0-9a-f-]{36}$/m);
    expect(human.stdout).toMatch(/^2 deliveries; next cursor \S+ \(committed\)$/m);

    const after = await runCli(['poll', made.id], env);
    expect(after.stdout).toMatch(/^0 deliveries; next cursor \S+ \(not committed: --commit stores it\)\n$/);
    const notPoll = await runCli(['poll', owner.accountId.replace(/^acct_/, 'wh_')], env);
    expect(notPoll).toMatchObject({ code: 1, stderr: expect.stringMatching(/^switchboard: not_found: /) });
  });
});
