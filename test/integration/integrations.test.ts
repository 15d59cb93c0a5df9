import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntegrationConfig } from '../../src/integrations/integrations.service.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let other: Awaited<ReturnType<typeof signupAccount>>;

const SMTP_PASSWORD = 'smtp-pass-Zq81-very-secret';
const SMS_TOKEN = 'Bearer sms-token-Xy72-very-secret';
const smtpBody = {
  host: 'smtp.mailhost.example',
  port: 587,
  username: 'mailer',
  password: SMTP_PASSWORD,
  from: 'Acme <hello@acme.example>',
};
const smsBody = {
  url: 'https://sms.example.com/v1/send?apiKey=query-secret-Qq11',
  headers: { Authorization: SMS_TOKEN },
  from: '+15550001111',
};

async function memberToken(ownerToken: string): Promise<string> {
  const email = `member-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const added = await api.post('/v1/team/members', {
    token: ownerToken,
    body: { email, password: 'member password 1', role: 'member' },
  });
  expect(added.status).toBe(201);
  const login = await api.post('/v1/auth/login', { body: { email, password: 'member password 1' } });
  return login.body.session.token;
}

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  other = await signupAccount(api, 'Other');
});
afterAll(() => t.close());

describe('integrations', () => {
  it('lists every provider as not connected on a new account', async () => {
    const res = await api.get('/v1/integrations', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { provider: 'smtp', connected: false },
        { provider: 'sms-http', connected: false },
      ],
      hasMore: false,
      nextCursor: null,
    });
  });

  it('connects smtp: 201, shows non-secret fields, never the password, and seals it at rest', async () => {
    const res = await api.post('/v1/integrations/smtp', { token: owner.token, body: smtpBody });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      provider: 'smtp',
      connected: true,
      host: 'smtp.mailhost.example',
      port: 587,
      secure: false,
      username: 'mailer',
      from: 'Acme <hello@acme.example>',
      hasPassword: true,
    });
    expect(Date.parse(res.body.connectedAt)).not.toBeNaN();
    expect(JSON.stringify(res.body)).not.toContain(SMTP_PASSWORD);

    const list = await api.get('/v1/integrations', { token: owner.token });
    expect(JSON.stringify(list.body)).not.toContain(SMTP_PASSWORD);
    expect(list.body.data[0]).toMatchObject({ provider: 'smtp', connected: true, hasPassword: true });

    const rows = await t.deps.db('integrations').where({ account_id: owner.accountId });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(SMTP_PASSWORD);
    expect(JSON.stringify(rows)).not.toContain('smtp-pass');

    // The senders get the decrypted configuration.
    expect(await getIntegrationConfig(t.deps, owner.accountId, 'smtp')).toEqual({
      host: 'smtp.mailhost.example',
      port: 587,
      secure: false,
      username: 'mailer',
      password: SMTP_PASSWORD,
      from: 'Acme <hello@acme.example>',
    });
  });

  it('connecting again replaces the configuration (200, still one row)', async () => {
    const res = await api.post('/v1/integrations/smtp', {
      token: owner.token,
      body: { host: 'smtp2.mailhost.example', port: 465, from: 'ops@acme.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      host: 'smtp2.mailhost.example',
      port: 465,
      secure: true,
      username: null,
      hasPassword: false,
    });
    expect(await t.deps.db('integrations').where({ account_id: owner.accountId })).toHaveLength(1);
    expect(await getIntegrationConfig(t.deps, owner.accountId, 'smtp')).toMatchObject({
      host: 'smtp2.mailhost.example',
      password: null,
    });
  });

  it('connects sms-http with header values and query secrets sealed, shown only by name', async () => {
    const res = await api.post('/v1/integrations/sms-http', { token: owner.token, body: smsBody });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      provider: 'sms-http',
      connected: true,
      from: '+15550001111',
      headerNames: ['Authorization'],
    });
    expect(res.body.url).toBe('https://sms.example.com/v1/send?apiKey=redacted');
    const text =
      JSON.stringify(res.body) + JSON.stringify((await api.get('/v1/integrations', { token: owner.token })).body);
    expect(text).not.toContain('sms-token');
    expect(text).not.toContain('query-secret');
    const rows = JSON.stringify(await t.deps.db('integrations').where({ account_id: owner.accountId }));
    expect(rows).not.toContain('sms-token');
    expect(rows).not.toContain('query-secret');
    expect(await getIntegrationConfig(t.deps, owner.accountId, 'sms-http')).toEqual({
      url: smsBody.url,
      headers: smsBody.headers,
      from: '+15550001111',
    });
  });

  it('keeps accounts apart: another account sees nothing and cannot disconnect', async () => {
    const list = await api.get('/v1/integrations', { token: other.token });
    expect(list.body.data.every((i: { connected: boolean }) => !i.connected)).toBe(true);
    expect(await getIntegrationConfig(t.deps, other.accountId, 'smtp')).toBeNull();
    const del = await api.delete('/v1/integrations/smtp', { token: other.token });
    expect(del.status).toBe(404);
    expect(await getIntegrationConfig(t.deps, owner.accountId, 'smtp')).not.toBeNull();
  });

  it('rejects bad input with validation_error listing the fields, and unknown providers with 404', async () => {
    const missing = await api.post('/v1/integrations/smtp', { token: owner.token, body: { host: 'smtp.example.com' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation_error');
    expect(missing.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(
      expect.arrayContaining(['port', 'from']),
    );

    const cases: Array<[string, unknown, string]> = [
      ['smtp', { ...smtpBody, port: 70000 }, 'port'],
      ['smtp', { ...smtpBody, from: 'not an address' }, 'from'],
      ['smtp', { ...smtpBody, host: '127.0.0.1' }, 'host'],
      ['smtp', { ...smtpBody, host: 'localhost' }, 'host'],
      ['smtp', { ...smtpBody, host: '169.254.169.254' }, 'host'],
      ['smtp', { ...smtpBody, host: '::1' }, 'host'],
      ['smtp', { ...smtpBody, host: 'smtp.example.com/x' }, 'host'],
      ['smtp', { host: 'smtp.example.com', port: 25, password: 'x', from: 'a@b.example' }, 'username'],
      ['smtp', { ...smtpBody, extra: true }, '(body)'],
      ['sms-http', { ...smsBody, url: 'http://sms.example.com/send' }, 'url'],
      ['sms-http', { ...smsBody, url: 'https://127.0.0.1/send' }, 'url'],
      ['sms-http', { ...smsBody, url: 'https://[::ffff:10.0.0.1]/send' }, 'url'],
      ['sms-http', { ...smsBody, url: 'https://metadata.google.internal/send' }, 'url'],
      ['sms-http', { ...smsBody, url: 'not a url' }, 'url'],
      ['sms-http', { ...smsBody, url: 'https://user:pw@sms.example.com/send' }, 'url'],
      ['sms-http', { ...smsBody, headers: { 'Bad Header': 'x' } }, 'headers.Bad Header'],
      ['sms-http', { ...smsBody, headers: { 'X-Token': 'a\r\nInjected: 1' } }, 'headers.X-Token'],
      ['sms-http', { ...smsBody, from: 'a sender id that is far too long' }, 'from'],
    ];
    for (const [provider, body, field] of cases) {
      const res = await api.post(`/v1/integrations/${provider}`, { token: owner.token, body });
      expect(res.status, `${provider} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const internal = await api.post('/v1/integrations/smtp', {
      token: owner.token,
      body: { ...smtpBody, host: '10.1.2.3' },
    });
    expect(internal.body.error.details.fields[0].message).toMatch(/public address/);

    const unknown = await api.post('/v1/integrations/carrier-pigeon', { token: owner.token, body: smtpBody });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await api.delete('/v1/integrations/carrier-pigeon', { token: owner.token })).status).toBe(404);
    // Nothing of the refused attempts was stored.
    expect(await getIntegrationConfig(t.deps, owner.accountId, 'smtp')).toMatchObject({
      host: 'smtp2.mailhost.example',
    });
  });

  it('lets a member session read and manage (members are capped at member level, not below)', async () => {
    const member = await memberToken(owner.token);
    const res = await api.get('/v1/integrations', { token: member });
    expect(res.status).toBe(200);
    expect(res.body.data[1]).toMatchObject({ provider: 'sms-http', connected: true });
    expect((await api.post('/v1/integrations/sms-http', { token: member, body: smsBody })).status).toBe(200);
  });

  it('enforces integrations:read / integrations:manage on keys; per-agent keys get 403', async () => {
    const reader = await createAccountKey(api, owner.token, { scopes: ['integrations:read'] });
    const read = await api.get('/v1/integrations', { token: reader.key });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('secret');
    const write = await api.post('/v1/integrations/smtp', { token: reader.key, body: smtpBody });
    expect(write.status).toBe(403);
    expect(write.body.error.details.requiredScope).toBe('integrations:manage');
    expect((await api.delete('/v1/integrations/smtp', { token: reader.key })).status).toBe(403);

    const noRead = await createAccountKey(api, owner.token);
    expect((await api.get('/v1/integrations', { token: noRead.key })).body.error.details.requiredScope).toBe(
      'integrations:read',
    );

    const manager = await createAccountKey(api, owner.token, { scopes: ['integrations:manage'] });
    const replaced = await api.post('/v1/integrations/smtp', {
      token: manager.key,
      body: { ...smtpBody, host: 'smtp2.mailhost.example' },
    });
    expect(replaced.status).toBe(200);

    const agentKey = await createAgentKey(api, owner.token, await createAgent(t, owner.accountId));
    for (const res of [
      await api.get('/v1/integrations', { token: agentKey.key }),
      await api.post('/v1/integrations/smtp', { token: agentKey.key, body: smtpBody }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('agent_forbidden');
    }
  });

  it('requires a credential', async () => {
    expect((await api.get('/v1/integrations')).status).toBe(401);
    expect((await api.post('/v1/integrations/smtp', { body: smtpBody })).status).toBe(401);
  });

  it('disconnects: 204, then not connected, the row is gone, a second delete is 404; both are audited', async () => {
    const del = await api.delete('/v1/integrations/sms-http', { token: owner.token });
    expect(del.status).toBe(204);
    expect(await getIntegrationConfig(t.deps, owner.accountId, 'sms-http')).toBeNull();
    expect((await api.delete('/v1/integrations/sms-http', { token: owner.token })).status).toBe(404);
    const list = await api.get('/v1/integrations', { token: owner.token });
    expect(list.body.data[1]).toEqual({ provider: 'sms-http', connected: false });

    const logs = await api.get('/v1/logs?limit=100', { token: owner.token });
    const actions = logs.body.data.map((e: { action: string }) => e.action);
    expect(actions.filter((a: string) => a === 'integration.connected')).toHaveLength(5);
    expect(actions).toContain('integration.disconnected');
    expect(JSON.stringify(logs.body)).not.toContain('secret');
  });
});

describe('integrations in development mode', () => {
  it('accepts loopback targets when WEBHOOK_ALLOW_PRIVATE_TARGETS is on (local SMTP/SMS receivers)', async () => {
    const dev = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const devApi = client(dev.url);
      const acct = await signupAccount(devApi);
      const smtp = await devApi.post('/v1/integrations/smtp', {
        token: acct.token,
        body: { host: '127.0.0.1', port: 2525, from: 'a@b.example' },
      });
      expect(smtp.status).toBe(201);
      const sms = await devApi.post('/v1/integrations/sms-http', {
        token: acct.token,
        body: { url: 'http://127.0.0.1:9999/sms', from: 'Acme' },
      });
      expect(sms.status).toBe(201);
    } finally {
      await dev.close();
    }
  });
});
