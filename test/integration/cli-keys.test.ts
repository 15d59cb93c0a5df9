import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';
import { client } from '../helpers/http.js';
import { setupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitFor } from '../helpers/wait.js';

// The CLI's keys commands for spend caps that refill, named rate limits and usage, against a real API.

let t: TestContext;
let home: string;

beforeAll(async () => {
  t = await createTestContext();
  home = mkdtempSync(join(tmpdir(), 'sb-cli-keys-'));
});
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await t.close();
});

describe('switchboard keys', () => {
  it('creates, edits and shows refilling caps and named limits, reads usage, and refuses a bad --limit', async () => {
    const owner = await setupAccount(t);
    const env = { XDG_CONFIG_HOME: home };
    const cli = async (...args: string[]) => {
      const r = await runCli(['--json', ...args], env);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const login = await runCli(['--json', 'login', '--url', t.url, '--email', owner.email], env, owner.password);
    expect(login.code, login.stderr).toBe(0);

    const created = await cli(
      'keys',
      'create',
      '--name',
      'ci',
      '--scopes',
      'read:agents,trigger:agents',
      '--spend-cap',
      '100',
      '--refill',
      'monthly',
      '--refill-day',
      '31',
      '--limit',
      'burst=2/60000',
      '--limit',
      'day=1000/86400000',
    );
    expect(created).toMatchObject({
      spendCapCredits: 100,
      spendCapInterval: 'monthly',
      spendCapRefillDay: 31,
      remainingCredits: 100,
      rateLimits: [
        { name: 'burst', limit: 2, durationMs: 60000 },
        { name: 'day', limit: 1000, durationMs: 86400000 },
      ],
    });
    const edited = await cli('keys', 'edit', created.id, '--refill', 'daily', '--limit', 'none');
    expect(edited).toMatchObject({ spendCapInterval: 'daily', spendCapRefillDay: null, rateLimits: [] });
    expect(await cli('keys', 'show', created.id)).toMatchObject({ id: created.id, spendCapInterval: 'daily' });

    const api = client(t.url);
    expect((await api.get('/v1/agents', { token: created.key })).status).toBe(200);
    expect((await api.get('/v1/webhooks', { token: created.key })).status).toBe(403);
    const usage = await waitFor(
      () => cli('keys', 'usage', created.id),
      (u) => u.totals.valid === 1 && u.totals.insufficient_scope === 1,
      { what: 'the usage counted' },
    );
    expect(usage.hours).toHaveLength(1);
    const text = await runCli(['keys', 'usage', created.id], env);
    expect(text.stdout).toMatch(/^totals: valid 1, insufficient_scope 1/);

    const bad = await runCli(['keys', 'create', '--name', 'x', '--limit', 'burst'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/name=limit\/durationMs/);
    const refused = await runCli(['keys', 'edit', created.id, '--refill', 'weekly'], env);
    expect(refused.stderr).toMatch(/validation_error/);
  });
});
