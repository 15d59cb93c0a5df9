import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reloadUntilShown,
  signInToDashboard,
  startPageSuite,
  type PageContext,
  type PageSuite,
} from '../helpers/dashboard-browser.js';
import type { Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import type { TestContext } from '../helpers/test-context.js';

// Portal links (docs/dashboard.md#portal-links): an account hands its customer a link to the subscriptions it
// labelled with that customer's tenant. In headless chromium with every other origin blocked: the portal shows only
// its scope, creates within the allowed events, edits, rotates, redelivers; another subscription's id in its URL,
// a tampered link, a revoked link and an expired one are refused.

let suite: PageSuite;
let t: TestContext;
let api: Client;
let receiver: Receiver;
let pc: PageContext | null;
let owner: SetupAccount;
const hooks: Record<'mine' | 'otherTenant' | 'untenanted', string> = { mine: '', otherTenant: '', untenanted: '' };

beforeAll(async () => {
  suite = await startPageSuite('portal-browser');
  ({ t, api, receiver, pc } = suite);
  owner = await setupAccount(t);
  const make = async (path: string, tenant?: string) => {
    const body = { url: `${receiver.url}/${path}`, events: ['message.received'], ...(tenant ? { tenant } : {}) };
    const res = await api.post('/v1/webhooks', { token: owner.token, body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  hooks.mine = await make('mine', 'cust-1');
  hooks.otherTenant = await make('other', 'cust-2');
  hooks.untenanted = await make('untenanted');
}, 900_000);

afterAll(async () => {
  await suite?.close();
});

const createLink = async (body: Record<string, unknown>) => {
  const res = await api.post('/v1/portal-links', { token: owner.token, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string; url: string };
};

describe('portal links', () => {
  it('issue a token shown once and usable on the portal API only, within its tenant', async () => {
    const link = await createLink({ tenant: 'cust-1', events: ['message.received', 'message.sent'] });
    expect(link.url).toBe(`${t.url}/portal/${link.token}`);
    const listed = await api.get('/v1/portal-links', { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain(link.token);
    expect((await api.get('/v1/webhooks', { token: link.token })).status).toBe(401);

    const mine = await api.get('/v1/portal/webhooks', { token: link.token });
    expect(mine.body.data.map((w: { id: string }) => w.id)).toEqual([hooks.mine]);
    for (const id of [hooks.otherTenant, hooks.untenanted]) {
      expect((await api.get(`/v1/portal/webhooks/${id}`, { token: link.token })).status).toBe(404);
      const patch = await api.patch(`/v1/portal/webhooks/${id}`, {
        token: link.token,
        body: { url: 'https://x.example' },
      });
      expect(patch.status).toBe(404);
    }
    // What a link carries cannot widen it: no tenant, no throttle, no events outside its list.
    const widen = await api.post('/v1/portal/webhooks', {
      token: link.token,
      body: { url: `${receiver.url}/x`, events: ['message.received'], tenant: 'cust-2' },
    });
    expect(widen.status).toBe(400);
    const outside = await api.post('/v1/portal/webhooks', {
      token: link.token,
      body: { url: `${receiver.url}/x`, events: ['inbox.created'] },
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error.details.fields[0].field).toBe('events');
    // A delivery of another tenant's subscription is not found through the link, under either subscription's id.
    const elsewhere = await startReceiver();
    const theirs = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: elsewhere.url, events: ['message.received'], tenant: 'cust-2' },
    });
    const sent = await api.post(`/v1/webhooks/${theirs.body.id}/test`, { token: owner.token });
    await elsewhere.waitFor(1);
    await elsewhere.close();
    expect(
      (await api.get(`/v1/webhooks/${theirs.body.id}/deliveries/${sent.body.deliveryId}`, { token: owner.token }))
        .status,
    ).toBe(200);
    for (const webhookId of [theirs.body.id, hooks.mine]) {
      const res = await api.get(`/v1/portal/webhooks/${webhookId}/deliveries/${sent.body.deliveryId}`, {
        token: link.token,
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    // Another account's link cannot revoke this one.
    const stranger = await setupAccount(t);
    expect((await api.post(`/v1/portal-links/${link.id}/revoke`, { token: stranger.token })).status).toBe(404);
  });

  it('shows only its scope in a browser, creates, edits, rotates and redelivers', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    const link = await createLink({ tenant: 'cust-1', events: ['message.received', 'message.sent'] });
    await page.goto(link.url);
    expect(await page.locator('h1').textContent()).toBe('Your webhook endpoints');
    expect(await page.locator(`a[href$="/webhooks/${hooks.mine}"]`).count()).toBe(1);
    expect(await page.locator('main').textContent()).not.toContain('/other');
    expect(
      await page
        .locator('input[name=events]')
        .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value)),
    ).toEqual(['message.received', 'message.sent']);

    // Another subscription's id in the URL.
    await page.goto(`${link.url}/webhooks/${hooks.otherTenant}`);
    expect(await page.locator('h1').textContent()).toBe('Not found');

    // Create within the allowed events; the secret is shown once; the tenant is the link's.
    await page.goto(link.url);
    await page.fill('#url', `${receiver.url}/added`);
    await page.click('button:text("Add endpoint")');
    expect(await page.locator('.field-error[data-field=events]').count()).toBe(1);
    await page.check('input[value="message.sent"]');
    await page.click('button:text("Add endpoint")');
    expect(await page.locator('[data-secret]').textContent()).toMatch(/^whsec_/);
    const all = (await api.get('/v1/webhooks', { token: owner.token })).body.data as Array<Record<string, unknown>>;
    expect(all.find((w) => w.url === `${receiver.url}/added`)).toMatchObject({
      tenant: 'cust-1',
      events: ['message.sent'],
    });

    // An ed25519 endpoint: its public key shown instead of a secret, and on its page.
    await page.goto(link.url);
    await page.fill('#url', `${receiver.url}/signed`);
    await page.check('input[value="message.sent"]');
    await page.selectOption('#signatureScheme', 'ed25519');
    await page.click('button:text("Add endpoint")');
    expect(await page.locator('[data-secret]').count()).toBe(0);
    const publicKey = (await page.locator('[data-public-key]').textContent())!;
    expect(publicKey).toMatch(/^whpk_/);
    await page.click('text=Back to the subscription');
    expect(await page.locator('[data-signature-scheme]').textContent()).toBe('ed25519');
    expect(await page.locator('main [data-public-key]').textContent()).toBe(publicKey);
    // The endpoint's filter is shown to the customer as it is.
    const filter = { channel: { $in: ['sms', 'email'] } };
    expect((await api.patch(`/v1/webhooks/${hooks.mine}`, { token: owner.token, body: { filter } })).status).toBe(200);
    await page.goto(`${link.url}/webhooks/${hooks.mine}`);
    expect(await page.locator('code[data-field=filter]').textContent()).toBe(JSON.stringify(filter));
    await api.patch(`/v1/webhooks/${hooks.mine}`, { token: owner.token, body: { filter: null } });

    // Edit the URL (the API's rules, shown on the page), rotate the secret.
    await page.goto(`${link.url}/webhooks/${hooks.mine}`);
    await page.fill('#url', 'ftp://nowhere.example');
    await page.click('button:text("Save URL")');
    expect(await page.locator('[role=alert]').count()).toBeGreaterThan(0);
    await page.fill('#url', `${receiver.url}/mine-v2`);
    await page.click('button:text("Save URL")');
    expect(await page.locator('[role=status]').textContent()).toBe('Saved.');
    await page.click('button:text("Rotate secret")');
    expect(await page.locator('[data-secret]').textContent()).toMatch(/^whsec_/);

    // A delivery to this endpoint, its attempt (the receiver's cookie shown redacted), and Redeliver.
    receiver.respond = () => ({ headers: { 'set-cookie': 'sid=portal-visible-nowhere' } });
    expect((await api.post(`/v1/webhooks/${hooks.mine}/test`, { token: owner.token })).status).toBe(202);
    await receiver.waitFor(1);
    const endpoint = `${link.url}/webhooks/${hooks.mine}`;
    await reloadUntilShown(page, 'td .status-succeeded', 'the delivery on the portal page', endpoint);
    await page.click('td a');
    // The request body, once: the signed envelope of the test event, naming this endpoint.
    expect(await page.locator('[data-envelope] pre').textContent()).toContain(`"webhookId": "${hooks.mine}"`);
    expect(await page.locator('[data-attempt="1"] [data-response-headers]').textContent()).toContain(
      'set-cookie: [redacted]',
    );
    expect(await page.content()).not.toContain('portal-visible-nowhere');
    receiver.respond = () => undefined;
    await page.click('button:text("Redeliver")');
    // The redirect back to the delivery page has landed before the page is reloaded.
    expect(await page.locator('[role=status]').textContent()).toMatch(/Queued again/);
    await receiver.waitFor(2);
    await reloadUntilShown(page, '[data-attempt="2"]', 'the second attempt on the portal page');
    expect(pc.problems).toEqual([]);
  });

  it('refuses a tampered, a revoked and an expired link with a 401 page', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    const link = await createLink({ tenant: 'cust-1' });
    const last = link.token.at(-1) === 'a' ? 'b' : 'a';
    const tampered = await page.goto(`${t.url}/portal/${link.token.slice(0, -1)}${last}`);
    expect(tampered!.status()).toBe(401);
    expect(await page.locator('[role=alert]').textContent()).toMatch(/not valid/);

    expect((await page.goto(link.url))!.status()).toBe(200);
    expect((await api.post(`/v1/portal-links/${link.id}/revoke`, { token: owner.token })).body.revokedAt).toBeTruthy();
    const revoked = await page.goto(link.url);
    expect(revoked!.status()).toBe(401);
    expect(await page.locator('[role=alert]').textContent()).toMatch(/revoked/);
    // The portal API refuses the revoked token at once, whatever page is still open.
    expect((await api.get('/v1/portal/webhooks', { token: link.token })).status).toBe(401);

    const expiring = await createLink({ tenant: 'cust-1', expiresInSeconds: 60 });
    await t.deps
      .db('portal_links')
      .where({ id: expiring.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await page.goto(expiring.url);
    expect(expired!.status()).toBe(401);
    expect(await page.locator('[role=alert]').textContent()).toMatch(/expired/);
    expect(pc.problems).toEqual([]);
  });

  it('is created and revoked from the dashboard, with the API refusing a bad field next to it', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    await signInToDashboard(page, t.url, owner.email, owner.password);
    await page.goto(`${t.url}/dashboard/portal-links`);
    await page.fill('#tenant', 'not a tenant!');
    await page.click('button:text("Create link")');
    expect(await page.locator('.field-error[data-field=tenant]').count()).toBe(1);
    await page.fill('#tenant', 'cust-1');
    await page.check('input[value="message.received"]');
    await page.click('button:text("Create link")');
    const url = (await page.locator('[data-portal-url]').textContent())!;
    expect(url).toMatch(new RegExp(`^${t.url}/portal/ca_portal_`));
    expect((await page.goto(url))!.status()).toBe(200);
    expect(await page.locator('input[name=events]').count()).toBe(1);

    await page.goto(`${t.url}/dashboard/portal-links`);
    await page.locator('tr', { hasText: 'message.received' }).locator('button:text("Revoke")').first().click();
    expect(await page.locator('[role=status]').textContent()).toMatch(/revoked/);
    expect((await page.goto(url))!.status()).toBe(401);
    expect(pc.problems).toEqual([]);
  });
});
