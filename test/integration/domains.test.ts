import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDkimSigningKey } from '../../src/domains/domains.service.js';
import { startTestDnsServer, type TestDnsServer } from '../helpers/dns.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

let t: TestContext;
let dns: TestDnsServer;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let other: Awaited<ReturnType<typeof signupAccount>>;

const SPF_HOST = 'spf.sendhost.test';
type Rec = { purpose: string; name: string; value: string; status: string; detail: string | null };
const recordOf = (body: { records: Rec[] }, purpose: string) => body.records.find((r) => r.purpose === purpose)!;

/** Publishes every record the API asked for, as a customer would. */
function publishAll(body: { records: Rec[] }) {
  for (const r of body.records) dns.setTxt(r.name, [r.value]);
}

beforeAll(async () => {
  dns = await startTestDnsServer();
  t = await createTestContext(
    { SPF_INCLUDE_HOST: SPF_HOST },
    { tune: (config) => void (config.dns.servers = [dns.address]) },
  );
  api = client(t.url);
  owner = await signupAccount(api);
  other = await signupAccount(api, 'Other');
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

describe('adding a domain', () => {
  let added: any;

  it('answers 201 with the SPF, DKIM and DMARC records to publish, never the private key', async () => {
    const res = await api.post('/v1/domains', { token: owner.token, body: { name: 'Mail.Acme.example.' } });
    expect(res.status).toBe(201);
    added = res.body;
    expect(added).toMatchObject({
      name: 'mail.acme.example',
      status: 'pending',
      verifiedAt: null,
      lastCheckedAt: null,
    });
    expect(added.id).toMatch(/^dom_/);
    expect(added.records.map((r: Rec) => r.purpose)).toEqual(['spf', 'dkim', 'dmarc']);
    expect(recordOf(added, 'spf')).toMatchObject({
      type: 'TXT',
      name: 'mail.acme.example',
      value: `v=spf1 include:${SPF_HOST} ~all`,
      status: 'pending',
    });
    const dkim = recordOf(added, 'dkim');
    expect(dkim.name).toBe(`${added.dkimSelector}._domainkey.mail.acme.example`);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    // p= is a real RSA-2048 public key.
    const pub = createPublicKey({
      key: Buffer.from(dkim.value.split('p=')[1]!, 'base64'),
      format: 'der',
      type: 'spki',
    });
    expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(recordOf(added, 'dmarc')).toMatchObject({
      name: '_dmarc.mail.acme.example',
      value: expect.stringMatching(/^v=DMARC1;/),
    });

    const text =
      JSON.stringify(added) + JSON.stringify((await api.get(`/v1/domains/${added.id}`, { token: owner.token })).body);
    expect(text).not.toMatch(/PRIVATE KEY|privateKey|sealed/i);
    const row = await t.deps.db('domains').where({ id: added.id }).first();
    expect(row.dkim_private_key_sealed).not.toContain('PRIVATE KEY');
  });

  it('hands out no signing key while the domain is unverified', async () => {
    expect(await getDkimSigningKey(t.deps, owner.accountId, 'mail.acme.example')).toBeNull();
  });

  it('lists and reads domains of the account only; another account gets 404', async () => {
    const list = await api.get('/v1/domains', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([added.id]);
    expect((await api.get('/v1/domains', { token: other.token })).body.data).toEqual([]);
    for (const res of [
      await api.get(`/v1/domains/${added.id}`, { token: other.token }),
      await api.post(`/v1/domains/${added.id}/verify`, { token: other.token }),
      await api.delete(`/v1/domains/${added.id}`, { token: other.token }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api.get('/v1/domains/dom_doesnotexist', { token: owner.token })).status).toBe(404);
  });

  it('refuses the same domain twice in one account (409), but another account may add it', async () => {
    const dup = await api.post('/v1/domains', { token: owner.token, body: { name: 'MAIL.acme.example' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('conflict');
    expect(await t.deps.db('domains').where({ account_id: owner.accountId })).toHaveLength(1);
    const elsewhere = await api.post('/v1/domains', { token: other.token, body: { name: 'mail.acme.example' } });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.dkimSelector).not.toBe(added.dkimSelector);
  });

  it('rejects bad names with validation_error on the name field', async () => {
    const bad = [
      'https://acme.example',
      'acme.example/path',
      'acme.example:25',
      'localhost',
      '-acme.example',
      'acme-.example',
      'ac_me.example',
      '192.168.1.1',
      `${'a'.repeat(64)}.example`,
      'user@acme.example',
      'acme..example',
      '',
      'acme.example com',
    ];
    for (const name of bad) {
      const res = await api.post('/v1/domains', { token: owner.token, body: { name } });
      expect(res.status, name).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields[0].field).toBe('name');
    }
    const missing = await api.post('/v1/domains', { token: owner.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields[0].field).toBe('name');
    expect((await api.post('/v1/domains', { token: owner.token, body: { name: 42 } })).status).toBe(400);
    expect(await t.deps.db('domains').where({ account_id: owner.accountId })).toHaveLength(1);
  });

  it('accepts an internationalised name in its ASCII form', async () => {
    const res = await api.post('/v1/domains', { token: owner.token, body: { name: 'bücher.example' } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('xn--bcher-kva.example');
  });
});

describe('verifying a domain with real DNS lookups', () => {
  let domain: any;

  beforeAll(async () => {
    domain = (await api.post('/v1/domains', { token: owner.token, body: { name: 'verify.acme.example' } })).body;
  });

  it('reports every record missing when nothing is published', async () => {
    const res = await api.post(`/v1/domains/${domain.id}/verify`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect(res.body.records.map((r: Rec) => r.status)).toEqual(['missing', 'missing', 'missing']);
    expect(Date.parse(res.body.lastCheckedAt)).not.toBeNaN();
    // The lookups really went to the DNS server.
    expect(dns.queries).toEqual(
      expect.arrayContaining([
        'verify.acme.example',
        `${domain.dkimSelector}._domainkey.verify.acme.example`,
        '_dmarc.verify.acme.example',
      ]),
    );
  });

  it('reports a mismatch for wrong values, and which record is wrong', async () => {
    dns.setTxt('verify.acme.example', ['v=spf1 include:_spf.google.com ~all', 'google-site-verification=abc']);
    dns.setTxt(`${domain.dkimSelector}._domainkey.verify.acme.example`, [
      'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong',
    ]);
    dns.setTxt('_dmarc.verify.acme.example', ['v=DMARC1; p=reject; rua=mailto:d@acme.example']);
    const res = await api.post(`/v1/domains/${domain.id}/verify`, { token: owner.token });
    expect(res.body.status).toBe('pending');
    expect(recordOf(res.body, 'spf')).toMatchObject({
      status: 'mismatch',
      detail: expect.stringContaining(`include:${SPF_HOST}`),
    });
    expect(recordOf(res.body, 'spf')).toMatchObject({
      found: expect.arrayContaining(['v=spf1 include:_spf.google.com ~all']),
    });
    expect(recordOf(res.body, 'dkim').status).toBe('mismatch');
    // The customer's own DMARC policy is fine.
    expect(recordOf(res.body, 'dmarc').status).toBe('verified');
  });

  it('flips to verified when every record is published (an SPF record merged with other includes counts)', async () => {
    publishAll(domain);
    dns.setTxt('verify.acme.example', [
      `v=spf1 include:_spf.google.com include:${SPF_HOST} ~all`,
      'google-site-verification=abc',
    ]);
    const res = await api.post(`/v1/domains/${domain.id}/verify`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('verified');
    expect(res.body.records.map((r: Rec) => r.status)).toEqual(['verified', 'verified', 'verified']);
    expect(Date.parse(res.body.verifiedAt)).not.toBeNaN();
    const again = await api.get(`/v1/domains/${domain.id}`, { token: owner.token });
    expect(again.body).toMatchObject({ status: 'verified', verifiedAt: res.body.verifiedAt });

    // The sealed private key signs what the published public key verifies.
    const signing = await getDkimSigningKey(t.deps, owner.accountId, 'verify.acme.example');
    expect(signing).toMatchObject({ domainName: 'verify.acme.example', keySelector: domain.dkimSelector });
    const signature = createSign('sha256').update('hello').sign(createPrivateKey(signing!.privateKey));
    const pub = createPublicKey({
      key: Buffer.from(recordOf(domain, 'dkim').value.split('p=')[1]!, 'base64'),
      format: 'der',
      type: 'spki',
    });
    expect(createVerify('sha256').update('hello').verify(pub, signature)).toBe(true);
  });

  it('goes back to pending when a record disappears, and says which', async () => {
    dns.remove('_dmarc.verify.acme.example');
    const res = await api.post(`/v1/domains/${domain.id}/verify`, { token: owner.token });
    expect(res.body.status).toBe('pending');
    expect(res.body.verifiedAt).toBeNull();
    expect(recordOf(res.body, 'dmarc').status).toBe('missing');
    expect(recordOf(res.body, 'spf').status).toBe('verified');
    const logs = await api.get('/v1/logs?limit=100', { token: owner.token });
    const actions = logs.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['domain.created', 'domain.verified', 'domain.unverified']));
  });

  it('reports a failing DNS server per record instead of failing the request', async () => {
    publishAll(domain);
    dns.failName(`${domain.dkimSelector}._domainkey.verify.acme.example`);
    const res = await api.post(`/v1/domains/${domain.id}/verify`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect(recordOf(res.body, 'dkim')).toMatchObject({
      status: 'missing',
      detail: expect.stringMatching(/lookup .* failed \(ESERVFAIL\)/),
    });
    expect(recordOf(res.body, 'spf').status).toBe('verified');
  });

  it('reports two SPF records as a mismatch', async () => {
    publishAll(domain);
    dns.setTxt('verify.acme.example', [`v=spf1 include:${SPF_HOST} ~all`, 'v=spf1 include:other.example ~all']);
    const res = await api.post(`/v1/domains/${domain.id}/verify`, { token: owner.token });
    expect(recordOf(res.body, 'spf')).toMatchObject({
      status: 'mismatch',
      detail: expect.stringMatching(/more than one/i),
    });
  });
});

describe('access', () => {
  it('enforces read:domains / write:domains on keys; per-agent keys get 403', async () => {
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:domains'] });
    const list = await api.get('/v1/domains', { token: reader.key });
    expect(list.status).toBe(200);
    const id = list.body.data[0].id;
    expect((await api.get(`/v1/domains/${id}`, { token: reader.key })).status).toBe(200);
    for (const res of [
      await api.post('/v1/domains', { token: reader.key, body: { name: 'keyed.acme.example' } }),
      await api.post(`/v1/domains/${id}/verify`, { token: reader.key }),
      await api.delete(`/v1/domains/${id}`, { token: reader.key }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'write:domains' } });
    }
    const defaults = await createAccountKey(api, owner.token);
    expect((await api.get('/v1/domains', { token: defaults.key })).body.error.details.requiredScope).toBe(
      'read:domains',
    );

    const writer = await createAccountKey(api, owner.token, { scopes: ['write:domains'] });
    expect((await api.post('/v1/domains', { token: writer.key, body: { name: 'keyed.acme.example' } })).status).toBe(
      201,
    );

    const agentKey = await createAgentKey(api, owner.token, await createAgent(t, owner.accountId));
    for (const res of [
      await api.get('/v1/domains', { token: agentKey.key }),
      await api.post(`/v1/domains/${id}/verify`, { token: agentKey.key }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('agent_forbidden');
    }
  });

  it('lets a member session read and manage domains; no credential is 401', async () => {
    const email = `member-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await api.post('/v1/team/members', {
      token: owner.token,
      body: { email, password: 'member password 1', role: 'member' },
    });
    const member = (await api.post('/v1/auth/login', { body: { email, password: 'member password 1' } })).body.session
      .token;
    const list = await api.get('/v1/domains', { token: member });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect((await api.get('/v1/domains')).status).toBe(401);
  });

  it('deletes: 204, then 404 on read and on a second delete', async () => {
    const d = (await api.post('/v1/domains', { token: owner.token, body: { name: 'gone.acme.example' } })).body;
    expect((await api.delete(`/v1/domains/${d.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/v1/domains/${d.id}`, { token: owner.token })).status).toBe(404);
    expect((await api.delete(`/v1/domains/${d.id}`, { token: owner.token })).status).toBe(404);
  });
});
