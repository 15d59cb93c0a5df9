import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Subscriptions through the API with the production URL rules (private targets NOT allowed).

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t?.close());

const PUBLIC_URL = 'https://93.184.216.34/hooks';

async function create(body: Record<string, unknown>, token = owner.token) {
  return api.post('/v1/webhooks', { token, body: { url: PUBLIC_URL, events: ['message.received'], ...body } });
}

describe('webhook subscriptions', () => {
  it('creates with a whsec_ secret shown once, never in later reads', async () => {
    const res = await create({
      events: ['message.received', 'message.sent', 'message.received'],
      description: 'orders',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: PUBLIC_URL,
      events: ['message.received', 'message.sent'],
      status: 'active',
      description: 'orders',
    });
    expect(res.body.id).toMatch(/^wh_/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);

    const got = await api.get(`/v1/webhooks/${res.body.id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(res.body.secret.slice(6));
    const list = await api.get('/v1/webhooks', { token: owner.token });
    expect(list.body.data.map((w: any) => w.id)).toContain(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    // At rest the secret is sealed, not stored in clear.
    const row = await t.deps.db('webhooks').where({ id: res.body.id }).first();
    expect(row.secret_sealed).not.toContain(res.body.secret.slice(6));
  });

  it('accepts planned event names and rejects unknown ones and webhook.test', async () => {
    expect((await create({ events: ['message.bounced', 'escalation.triggered'] })).status).toBe(201);
    const bad = await create({ events: ['message.exploded'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    expect((await create({ events: ['webhook.test'] })).status).toBe(400);
    expect((await create({ events: [] })).status).toBe(400);
  });

  it('rejects non-public and non-https targets with invalid_webhook_url', async () => {
    for (const url of [
      'http://93.184.216.34/',
      'https://127.1/',
      'https://0x7f000001/',
      'https://2130706433/',
      'https://[::ffff:10.0.0.1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:c0a8:101::]/',
      'https://169.254.169.254/',
      'https://metadata.google.internal/',
      'https://[fd00:ec2::254]/',
      'https://localhost/',
      'https://user:pw@93.184.216.34/',
      'https://100.64.1.1/',
    ]) {
      const res = await create({ url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('invalid_webhook_url');
    }
  });

  it('refuses a host that is not valid IDNA and port 0, at create and at PATCH', async () => {
    const { body: wh } = await create({});
    for (const url of [
      // xn-- labels whose Punycode decodes to a name IDNA does not allow.
      'https://xn--vuhdqncpe6aj/x',
      'https://xn--mi7cdqncpe6aj/x',
      'https://93.184.216.34:0/hook',
    ]) {
      const created = await create({ url });
      expect(created.status, url).toBe(400);
      expect(created.body.error.code, url).toBe('invalid_webhook_url');
      const patched = await api.patch(`/v1/webhooks/${wh.id}`, { token: owner.token, body: { url } });
      expect(patched.status, url).toBe(400);
      expect(patched.body.error.code, url).toBe('invalid_webhook_url');
    }
    // A valid internationalized name stays accepted (not resolvable here, so judged again at each send).
    expect((await create({ url: 'https://xn--bcher-kva.example/hook' })).status).toBe(201);
    expect((await api.get(`/v1/webhooks/${wh.id}`, { token: owner.token })).body.url).toBe(PUBLIC_URL);
  });

  it('outside production, a local http:// target is refused with the setting that allows it named', async () => {
    const res = await create({ url: 'http://127.0.0.1:4100/hooks' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^The url must use https:\/\/\. .*WEBHOOK_ALLOW_PRIVATE_TARGETS=true/);
    const local = await create({ url: 'https://127.0.0.1:4100/hooks' });
    expect(local.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
  });

  it('POST /v1/webhooks/:id/test sends webhook.test and refuses a field it does not read', async () => {
    const { body: wh } = await create({});
    const path = `/v1/webhooks/${wh.id}/test`;
    const named = await api.post(path, { token: owner.token, body: { event: 'contact.created' } });
    expect(named.status).toBe(400);
    expect(named.body.error.code).toBe('validation_error');
    expect((await api.post(path, { token: owner.token })).status).toBe(202);
    expect((await api.post(path, { token: owner.token, body: {} })).status).toBe(202);
  });

  it('updates, validates a new url, replaces and removes the legacy secret; never returns it', async () => {
    const { body: wh } = await create({ legacySecret: 'legacy-secret-0123456789' });
    expect(wh.legacySecret).toBeUndefined();
    expect(wh.hasLegacySecret).toBe(true);
    const upd = await api.patch(`/v1/webhooks/${wh.id}`, {
      token: owner.token,
      body: { events: ['inbox.created'], description: null, legacySecret: null },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ events: ['inbox.created'], description: null, hasLegacySecret: false });
    const bad = await api.patch(`/v1/webhooks/${wh.id}`, { token: owner.token, body: { url: 'https://10.0.0.1/' } });
    expect(bad.body.error.code).toBe('invalid_webhook_url');
    expect((await create({ legacySecret: 'short' })).status).toBe(400);
  });

  it('rotates the secret with a 24 h overlap', async () => {
    const { body: wh } = await create({});
    const res = await api.post(`/v1/webhooks/${wh.id}/rotate-secret`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(wh.id);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(wh.secret);
    const overlap = Date.parse(res.body.previousSecretExpiresAt) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('deletes once; a second delete and later reads are 404', async () => {
    const { body: wh } = await create({});
    expect((await api.delete(`/v1/webhooks/${wh.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.delete(`/v1/webhooks/${wh.id}`, { token: owner.token })).status).toBe(404);
    expect((await api.get(`/v1/webhooks/${wh.id}`, { token: owner.token })).status).toBe(404);
  });

  it("answers 404 for another account's webhook on every route", async () => {
    const { body: wh } = await create({});
    const other = await signupAccount(api, 'Other');
    const token = other.token;
    expect((await api.get(`/v1/webhooks/${wh.id}`, { token })).status).toBe(404);
    expect((await api.patch(`/v1/webhooks/${wh.id}`, { token, body: { description: 'x' } })).status).toBe(404);
    expect((await api.delete(`/v1/webhooks/${wh.id}`, { token })).status).toBe(404);
    expect((await api.post(`/v1/webhooks/${wh.id}/rotate-secret`, { token })).status).toBe(404);
    expect((await api.post(`/v1/webhooks/${wh.id}/enable`, { token })).status).toBe(404);
    expect((await api.get(`/v1/webhooks/${wh.id}/attempts`, { token })).status).toBe(404);
    expect((await api.get(`/v1/webhooks/${wh.id}/deliveries`, { token })).status).toBe(404);
    expect((await api.post(`/v1/webhooks/${wh.id}/test`, { token })).status).toBe(404);
    const list = await api.get('/v1/webhooks', { token });
    expect(list.body.data).toEqual([]);
    expect((await api.get(`/v1/webhooks/${wh.id}`, { token: owner.token })).status).toBe(200);
  });

  it('needs read:webhooks to read and write:webhooks to change', async () => {
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:webhooks'] });
    const writer = await createAccountKey(api, owner.token, { scopes: ['write:webhooks'] });
    const none = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    expect((await api.get('/v1/webhooks', { token: reader.key })).status).toBe(200);
    const denied = await create({}, reader.key);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    expect((await create({}, writer.key)).status).toBe(201);
    expect((await api.get('/v1/webhooks', { token: none.key })).status).toBe(403);
    expect((await api.get('/v1/webhooks')).status).toBe(401);
  });

  it('pages the list', async () => {
    const fresh = await signupAccount(api, 'Pager');
    for (let i = 0; i < 3; i++) await create({}, fresh.token);
    const first = await api.get('/v1/webhooks?limit=2', { token: fresh.token });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await api.get(`/v1/webhooks?limit=2&cursor=${first.body.nextCursor}`, { token: fresh.token });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.hasMore).toBe(false);
  });
});

describe('audit rows of webhook changes', () => {
  it("are written in the change's transaction: when the audit insert fails, the change is rolled back", async () => {
    const made = (await create({ description: 'before' })).body;
    const rowOf = () => t.deps.db('webhooks').where({ id: made.id }).first();
    const kept = await rowOf();
    // A real failure of the audit insert, in this file's own database: a trigger refuses webhook audit rows.
    await t.deps.db.raw(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit refused'; END $$`);
    await t.deps.db.raw(`CREATE TRIGGER refuse_webhook_audit BEFORE INSERT ON audit_log
      FOR EACH ROW WHEN (NEW.target_type = 'webhook') EXECUTE FUNCTION refuse_audit()`);
    try {
      const token = owner.token;
      const count = async () => Number((await t.deps.db('webhooks').count({ n: '*' }).first())!.n);
      const before = await count();
      expect((await create({ description: 'never' })).status).toBe(500);
      expect(await count()).toBe(before);
      expect((await api.patch(`/v1/webhooks/${made.id}`, { token, body: { description: 'changed' } })).status).toBe(
        500,
      );
      expect((await api.post(`/v1/webhooks/${made.id}/rotate-secret`, { token })).status).toBe(500);
      expect((await api.delete(`/v1/webhooks/${made.id}`, { token })).status).toBe(500);
      await t.deps.db('webhooks').where({ id: made.id }).update({ status: 'disabled' });
      expect((await api.post(`/v1/webhooks/${made.id}/enable`, { token, body: {} })).status).toBe(500);
      // Nothing moved: the description, the secret, the deleted mark and the status are as before the calls.
      expect(await rowOf()).toMatchObject({
        description: 'before',
        secret_sealed: kept.secret_sealed,
        previous_secret_sealed: kept.previous_secret_sealed,
        deleted_at: null,
        status: 'disabled',
      });
    } finally {
      await t.deps.db.raw('DROP TRIGGER refuse_webhook_audit ON audit_log');
    }
    // The same calls succeed once the audit insert works again, each with its audit row.
    expect((await api.post(`/v1/webhooks/${made.id}/enable`, { token: owner.token, body: {} })).status).toBe(200);
    const audited = await t.deps.db('audit_log').where({ target_id: made.id }).pluck('action');
    expect(audited).toEqual(expect.arrayContaining(['webhook.created', 'webhook.enabled']));
    expect(audited).not.toContain('webhook.updated');
  });
});
