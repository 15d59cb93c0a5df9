import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import {
  csrfOnPage,
  reloadUntilShown,
  signInToDashboard,
  startPageSuite,
  type PageContext,
  type PageSuite,
} from '../helpers/dashboard-browser.js';
import type { Client } from '../helpers/http.js';
import { authorizeByHand, registerClient } from '../helpers/oauth.js';
import { closedPort, startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import type { TestContext } from '../helpers/test-context.js';
import { waitUntil } from '../helpers/wait.js';

// The dashboard (docs/dashboard.md) as a person uses it, in headless chromium with every other origin blocked:
// sign in, create a subscription to a local receiver, fire a test event, open the delivery and its attempt,
// redeliver, see field errors and stale pages answered clearly, and a member refused what only admins may do.

let suite: PageSuite;
let t: TestContext;
let api: Client;
let receiver: Receiver;
let pc: PageContext | null;
let owner: SetupAccount;

beforeAll(async () => {
  // A failed delivery waits an hour for its retry: what the page shows stays put while the test reads it.
  suite = await startPageSuite('dashboard-browser', { WEBHOOK_RETRY_DELAYS_MS: '3600000' });
  ({ t, api, receiver, pc } = suite);
  owner = await setupAccount(t, { accountKey: { name: 'ci key' }, agent: { name: 'Support bot' } });
}, 900_000);

afterAll(async () => {
  await suite?.close();
});

const signIn = (email: string, password: string) => signInToDashboard(pc!.page, t.url, email, password);

describe('the dashboard in a real browser', () => {
  it('signs in, creates a subscription, shows a delivery and its attempts, and redelivers', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    await signIn(owner.email, 'wrong password');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/incorrect/);
    await signIn(owner.email, owner.password);
    expect(page.url()).toBe(`${t.url}/dashboard/webhooks`);
    // The header names the person signed in, not only their role.
    expect(await page.locator('header .who').textContent()).toBe(`Signed in as ${owner.email} (owner)`);
    const cookie = (await pc.context.cookies()).find((c) => c.name === 'sb_dash')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });

    // The API's own rules, shown next to the field they concern; the values typed are kept.
    await page.fill('#url', 'ftp://example.com/hook');
    await page.click('button:text("Create subscription")');
    expect(await page.locator('.field-error[data-field=events]').textContent()).toMatch(/at least one event/);
    expect(await page.inputValue('#url')).toBe('ftp://example.com/hook');

    await page.fill('#url', `${receiver.url}/hook`);
    await page.check('input[value="message.received"]');
    await page.fill('#rate', '5');
    await page.click('button:text("Create subscription")');
    const secret = await page.locator('[data-secret]').textContent();
    expect(secret).toMatch(/^whsec_/);
    await page.click('text=Back to the subscription');
    expect(await page.content()).not.toContain(secret!);
    expect(await page.locator('main').textContent()).toContain('5 per second');

    // The receiver answers with a header whose value is markup: the attempt page shows it as text.
    receiver.respond = () => ({ headers: { 'x-receiver-note': '<b>taken</b>' } });
    await page.click('button:text("Send a test event")');
    expect(await page.locator('[role=status]').textContent()).toMatch(/webhook.test event was queued/);
    await receiver.waitFor(1);
    await reloadUntilShown(page, 'td .status-succeeded', 'the delivery shown as succeeded');
    // The chart is a server-drawn SVG image; no script on the page.
    expect(await page.locator('img[src^="data:image/svg+xml;base64,"]').count()).toBe(1);
    expect(await page.locator('script').count()).toBe(0);

    // The filters narrow the list through the API's own query.
    await page.selectOption('#fstatus', 'failed');
    await page.click('button:text("Filter")');
    expect(await page.locator('main').textContent()).toContain('No deliveries match.');
    await page.selectOption('#fstatus', 'succeeded');
    await page.selectOption('#fevent', 'webhook.test');
    await page.click('button:text("Filter")');
    await page.click('td a');
    expect(await page.locator('[data-attempt="1"] [data-response-status]').textContent()).toBe('200');
    const answered = page.locator('[data-attempt="1"] [data-response-headers]');
    expect(await answered.textContent()).toContain('x-receiver-note: <b>taken</b>');
    expect(await answered.locator('b').count()).toBe(0);
    expect(await page.locator('[data-attempt="1"] [data-request-headers]').textContent()).toMatch(
      /webhook-signature: v1,/,
    );
    receiver.respond = () => undefined;

    await page.click('button:text("Redeliver")');
    expect(await page.locator('[role=status]').textContent()).toMatch(/Queued again/);
    await receiver.waitFor(2);
    expect(receiver.received[1]!.body.id).toBe(receiver.received[0]!.body.id);
    await reloadUntilShown(page, '[data-attempt="2"]', 'the second attempt on the delivery page');

    // The request body is shown once, above the attempts: an event's payload with markup in it reads as text.
    const payload = { id: 'msg_1', subject: '<i>Invoice</i> & co' };
    await transactWithEvents(t.deps, owner.accountId, (_trx, emit) => emit({ type: 'message.received', payload }));
    await receiver.waitFor(3);
    const list = `${page.url().split('/deliveries/')[0]}?event=message.received`;
    await reloadUntilShown(page, 'td .status-succeeded', 'the message.received delivery', list);
    await page.click('td a');
    const body = page.locator('[data-envelope] pre');
    expect(await body.textContent()).toContain('"subject": "<i>Invoice</i> & co"');
    expect(await body.locator('i').count()).toBe(0);
    expect(JSON.parse((await body.textContent())!)).toEqual(receiver.received[2]!.body);
    expect(await page.locator('[data-envelope]').count()).toBe(1);
    expect(pc.problems).toEqual([]);
  });

  it("shows when a failing delivery's next attempt is due, in the list and on its page, as the API says", async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    await page.goto(`${t.url}/dashboard`);
    if (page.url().endsWith('/dashboard/sign-in')) await signIn(owner.email, owner.password);
    const failing = await startReceiver();
    failing.respond = () => ({ status: 500 });
    try {
      const hook = await api.post('/v1/webhooks', {
        token: owner.token,
        body: { url: `${failing.url}/down`, events: ['message.received'] },
      });
      await api.post(`/v1/webhooks/${hook.body.id}/test`, { token: owner.token });
      await failing.waitFor(1);
      const pending = await waitUntil(
        async () => {
          const d = (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { token: owner.token })).body.data[0];
          return d?.attempts === 1 && d.status === 'pending' && d.nextAttemptAt && d;
        },
        30_000,
        'the delivery waiting for its retry',
      );
      // An hour out (this file's WEBHOOK_RETRY_DELAYS_MS), ±10 %.
      const dueIn = Date.parse(pending.nextAttemptAt) - Date.parse(pending.updatedAt);
      expect(dueIn).toBeGreaterThan(0.85 * 3600_000);
      const shown = pending.nextAttemptAt.replace('T', ' ').slice(0, 19) + 'Z';
      await page.goto(`${t.url}/dashboard/webhooks/${hook.body.id}`);
      const headers = await page.locator('table thead th').allTextContents();
      const row = page.locator(`tr:has(a[href$="/deliveries/${pending.id}"]) td`);
      expect((await row.allTextContents())[headers.indexOf('Next attempt')]).toBe(shown);
      await page.click(`a[href$="/deliveries/${pending.id}"]`);
      expect(await page.locator('[data-next-attempt]').textContent()).toContain(shown);
      expect(pc.problems).toEqual([]);
    } finally {
      await failing.close();
    }
  });

  it('answers a stale page clearly, re-enables with recovery, and refuses forged and cross-site posts', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    const hooks = (await api.get('/v1/webhooks', { token: owner.token })).body.data;
    const webhookId = hooks[0].id as string;

    // The subscription's filter is shown as the JSON it is, markup in it as text; without one, every event.
    const filter = { subject: { $startsWith: '<b>Order' } };
    expect((await api.patch(`/v1/webhooks/${webhookId}`, { token: owner.token, body: { filter } })).status).toBe(200);
    await page.goto(`${t.url}/dashboard/webhooks/${webhookId}`);
    expect(await page.locator('code[data-field=filter]').textContent()).toBe(JSON.stringify(filter));
    expect(await page.locator('code[data-field=filter] b').count()).toBe(0);
    await api.patch(`/v1/webhooks/${webhookId}`, { token: owner.token, body: { filter: null } });
    await page.reload();
    expect(await page.locator('code[data-field=filter]').count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('every event');

    // Disabled by hand, the page offers Enable with "Recover since…".
    await page.goto(`${t.url}/dashboard/webhooks/${webhookId}`);
    await page.click('button:text("Disable")');
    expect(await page.locator('[role=status]').textContent()).toMatch(/disabled/);
    expect(await page.locator('main').textContent()).toContain('Disabled by the account');
    const again = await api.post(`/v1/webhooks/${webhookId}/disable`, { token: owner.token });
    expect(again.body).toMatchObject({ status: 'disabled', disabledReason: 'Disabled by the account' });
    const stranger = await setupAccount(t);
    expect((await api.post(`/v1/webhooks/${webhookId}/disable`, { token: stranger.token })).status).toBe(404);
    await page.fill('#recoverSince', 'yesterday');
    await page.click('button:text("Enable")');
    expect(await page.locator('.field-error[data-field=recoverSince]').count()).toBe(1);
    await page.fill('#recoverSince', new Date(Date.now() - 3600_000).toISOString());
    await page.click('button:text("Enable")');
    expect(await page.locator('[role=status]').textContent()).toMatch(/enabled/);
    expect(await page.locator('main .status-active').count()).toBe(1);

    // A page left open on a subscription deleted meanwhile.
    expect((await api.delete(`/v1/webhooks/${webhookId}`, { token: owner.token })).status).toBe(204);
    await page.click('button:text("Rotate secret")');
    expect(await page.locator('h1').textContent()).toBe('Not found');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/may have been deleted/);

    // A form without this session's token, and one sent from another site, change nothing.
    await page.goto(`${t.url}/dashboard/keys`);
    const keyPath = `${t.url}/dashboard/keys/${owner.accountKey!.id}/deactivate`;
    const noToken = await page.request.post(keyPath, { form: { csrf: 'forged' } });
    expect(noToken.status()).toBe(403);
    const crossSite = await page.request.post(keyPath, {
      form: { csrf: (await csrfOnPage(page))! },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status()).toBe(403);
    const ciKey = await api.get(`/v1/api_keys/${owner.accountKey!.id}`, { token: owner.token });
    expect(ciKey.body.status).toBe('active');
    expect(pc.problems).toEqual([]);
  });

  it('creates an ed25519 subscription: its public key shown, no secret; a rotation shows the new key', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    // Signed in by the test before, or here when this one runs alone.
    await page.goto(`${t.url}/dashboard/webhooks`);
    if (page.url() !== `${t.url}/dashboard/webhooks`) await signIn(owner.email, owner.password);
    await page.fill('#url', `${receiver.url}/signed`);
    await page.check('input[value="contact.created"]');
    await page.selectOption('#signatureScheme', 'ed25519');
    await page.click('button:text("Create subscription")');
    expect(await page.locator('[data-secret]').count()).toBe(0);
    const shown = (await page.locator('[data-public-key]').textContent())!;
    expect(shown).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    await page.click('text=Back to the subscription');
    // The public key stays readable on the subscription's page, beside its scheme.
    expect(await page.locator('[data-signature-scheme]').textContent()).toBe('ed25519');
    expect(await page.locator('main [data-public-key]').textContent()).toBe(shown);
    await page.click('button:text("Rotate secret")');
    const rotated = (await page.locator('[data-public-key]').textContent())!;
    expect(rotated).toMatch(/^whpk_/);
    expect(rotated).not.toBe(shown);
    await page.click('text=Back to the subscription');
    expect(await page.locator('main [data-public-key]').textContent()).toBe(rotated);
    expect(await page.locator('[data-previous-key]').textContent()).toContain(shown);
    expect(pc.problems).toEqual([]);
  });

  it('creates a subscription of every kind: each kind shows its own fields, a poll one its credential once', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    await page.goto(`${t.url}/dashboard/webhooks`);
    if (page.url() !== `${t.url}/dashboard/webhooks`) await signIn(owner.email, owner.password);
    // http is chosen at first: no broker field shows; choosing a kind shows its own fields and no other's.
    expect(await page.isChecked('input[name=kind][value=http]')).toBe(true);
    expect(await page.isVisible('#exchange')).toBe(false);
    await page.check('input[name=kind][value=nats]');
    expect(await page.isVisible('#subject')).toBe(true);
    expect(await page.isVisible('#exchange')).toBe(false);

    // rabbitmq: a missing routing key is the API's field error, beside its field, with what was typed kept.
    await page.check('input[name=kind][value=rabbitmq]');
    await page.fill('#url', 'amqp://publisher:local-pw@127.0.0.1:5672/');
    await page.fill('#exchange', 'orders');
    await page.check('input[value="contact.created"]');
    await page.click('button:text("Create subscription")');
    expect(await page.locator('.field-error[data-field=routingKey]').textContent()).toMatch(
      /required for kind rabbitmq/,
    );
    expect(await page.isChecked('input[name=kind][value=rabbitmq]')).toBe(true);
    expect(await page.inputValue('#exchange')).toBe('orders');
    await page.fill('#routingKey', 'switchboard.{event}');
    await page.check('input[value="contact.created"]');
    await page.click('button:text("Create subscription")');
    expect(await page.locator('[data-secret]').textContent()).toMatch(/^whsec_/);

    // poll: no URL to give; the answer shows its poll credential once, beside the secret.
    await page.goto(`${t.url}/dashboard/webhooks`);
    await page.check('input[name=kind][value=poll]');
    expect(await page.isVisible('#url')).toBe(false);
    await page.check('input[value="contact.created"]');
    await page.click('button:text("Create subscription")');
    expect(await page.locator('[data-poll-credential]').textContent()).toMatch(/^whpoll_[0-9A-Za-z]{38}$/);

    const made = (await api.get('/v1/webhooks?limit=100', { token: owner.token })).body.data;
    const byKind = (kind: string) => made.filter((w: { kind: string }) => w.kind === kind);
    expect(byKind('rabbitmq')).toEqual([
      expect.objectContaining({ exchange: 'orders', routingKey: 'switchboard.{event}', events: ['contact.created'] }),
    ]);
    expect(byKind('rabbitmq')[0].url).not.toContain('local-pw');
    const [poll] = byKind('poll');
    expect(poll).toMatchObject({ url: `/v1/webhooks/${poll.id}/poll`, events: ['contact.created'] });
    expect(pc.problems).toEqual([]);
  });

  it("mints, rotates and deactivates an agent's keys (each secret shown once) and revokes an OAuth grant", async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    await page.goto(`${t.url}/dashboard/agents`);
    const agent = page.locator(`[data-agent="${owner.agentId}"]`);
    expect(await agent.locator('h2').textContent()).toContain('Support bot');
    await agent.locator('input[name=name]').fill('');
    await agent.locator('button:text("Create key")').click();
    expect(await page.locator('.field-error[data-field=name]').count()).toBe(1);
    await page.locator(`[data-agent="${owner.agentId}"] input[name=name]`).fill('voice bridge');
    await page.locator(`[data-agent="${owner.agentId}"] input[value="agent:config:write"]`).check();
    await page.locator(`[data-agent="${owner.agentId}"] button:text("Create key")`).click();
    const first = (await page.locator('[data-secret]').textContent())!;
    expect(first).toMatch(/^ca_agt_/);
    const keys = (await api.get('/v1/api_keys', { token: owner.token })).body.data as Array<Record<string, any>>;
    const minted = keys.find((k) => k.name === 'voice bridge')!;
    expect(minted).toMatchObject({ keyType: 'agent', agentId: owner.agentId });
    expect(minted.scopes).toContain('agent:config:write');

    await page.goto(`${t.url}/dashboard/agents`);
    await page.locator('tr', { hasText: 'voice bridge' }).locator('button:text("Rotate")').click();
    const second = (await page.locator('[data-secret]').textContent())!;
    expect(second).toMatch(/^ca_agt_/);
    expect(second).not.toBe(first);
    await page.goto(`${t.url}/dashboard/agents`);
    expect(await page.content()).not.toContain(second);
    await page.locator('tr', { hasText: 'voice bridge' }).locator('button:text("Deactivate")').click();
    await page.goto(`${t.url}/dashboard/agents`);
    expect(await page.locator('tr', { hasText: 'voice bridge' }).locator('.status-deactivated').count()).toBe(1);
    // An OAuth client the owner consented to, revoked from the grants page.
    const registered = await registerClient(t.url, { client_name: 'Claude Desktop' });
    const flow = await authorizeByHand(t.url, {
      clientId: registered.body.client_id,
      resource: `${t.url}/v1/agents/${owner.agentId}/mcp`,
      scope: 'agent:config:read',
      email: owner.email,
      password: owner.password,
      choose: ['agent:config:read'],
    });
    expect(flow.code).toBeTruthy();
    await page.goto(`${t.url}/dashboard/grants`);
    const grant = page.locator('tr', { hasText: 'Claude Desktop' });
    expect(await grant.textContent()).toContain('agent:config:read');
    await grant.locator('button:text("Revoke")').click();
    expect(await page.locator('[role=status]').textContent()).toMatch(/revoked/);
    expect(await page.locator('main').textContent()).toContain('No OAuth grants.');
    expect(pc.problems).toEqual([]);
  });

  it('shows a member the admin actions disabled and refuses the forged post with a 403 page', async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    const add = await api.post('/v1/team/members', {
      token: owner.token,
      body: { email: `member-${owner.accountId}@example.com`, password: 'member password', role: 'member' },
    });
    expect(add.status).toBe(201);
    await page.click('button:text("Sign out")');
    expect(page.url()).toBe(`${t.url}/dashboard/sign-in`);
    await signIn(`member-${owner.accountId}@example.com`, 'member password');
    // Emails are stored lower-cased; the account id in this one is not.
    const who = `Signed in as member-${owner.accountId.toLowerCase()}@example.com (member)`;
    expect(await page.locator('header .who').textContent()).toBe(who);
    await page.goto(`${t.url}/dashboard/keys`);
    expect(await page.locator('button:text("Deactivate")').first().isDisabled()).toBe(true);
    await page.goto(`${t.url}/dashboard/agents`);
    expect(await page.locator('button:text("Create key")').isDisabled()).toBe(true);
    await page.goto(`${t.url}/dashboard/grants`);
    expect(await page.locator('main').textContent()).toContain('listed and revoked by an owner or admin');
    await page.goto(`${t.url}/dashboard/keys`);

    // The member's own valid form token does not make the API allow an admin action.
    const forged = await page.request.post(`${t.url}/dashboard/keys/${owner.accountKey!.id}/deactivate`, {
      form: { csrf: (await csrfOnPage(page))! },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toMatch(/owner or admin/);
    const ciKey = await api.get(`/v1/api_keys/${owner.accountKey!.id}`, { token: owner.token });
    expect(ciKey.body.status).toBe('active');
    expect(pc.problems).toEqual([]);
  });

  it("lists each subscription's health, its filter and its events, the planned ones marked; the chart fills its width", async (ctx) => {
    if (!pc) return ctx.skip();
    const { page } = pc;
    const who = await setupAccount(t);
    const create = async (body: Record<string, unknown>) =>
      (await api.post('/v1/webhooks', { token: who.token, body })).body.id as string;
    const healthy = await create({
      url: `${receiver.url}/healthy`,
      events: ['contact.created', 'inbox.updated'],
      filter: { email: { $eq: 'ada@example.com' } },
    });
    const failing = await create({ url: `http://127.0.0.1:${await closedPort()}/down`, events: ['contact.created'] });
    const idle = await create({ url: `${receiver.url}/idle`, events: ['message.received'] });
    receiver.respond = () => ({ status: 204 });
    for (const id of [healthy, failing]) await api.post(`/v1/webhooks/${id}/test`, { token: who.token });

    await page.click('button:text("Sign out")');
    await signIn(who.email, who.password);
    const row = (id: string) => `tr[data-webhook="${id}"]`;
    await reloadUntilShown(page, `${row(healthy)} [data-health="healthy"]`, 'the delivered subscription healthy');
    await reloadUntilShown(page, `${row(failing)} [data-health="failing"]`, 'the refused subscription failing');
    expect(await page.locator(`${row(healthy)} [data-success-rate]`).textContent()).toBe('100.0%');
    expect(await page.locator(`${row(healthy)} [data-last-delivery]`).textContent()).toMatch(
      /^last delivery \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/,
    );
    expect(await page.locator(`${row(failing)} [data-success-rate]`).textContent()).toBe('0.0%');
    expect(await page.locator(`${row(idle)} [data-health]`).textContent()).toBe('idle');
    expect(await page.locator(`${row(idle)} [data-last-delivery]`).textContent()).toBe('last delivery —');
    // The filter as the API holds it; none for the others.
    expect(await page.locator(`${row(healthy)} [data-filter]`).textContent()).toBe(
      '{"email":{"$eq":"ada@example.com"}}',
    );
    expect(await page.locator(`${row(idle)} td:nth-child(3)`).textContent()).toBe('none');
    // inbox.updated is planned: marked in the list and in the create form; contact.created is not.
    expect(await page.locator(`${row(healthy)} [data-planned]`).allTextContents()).toEqual(['inbox.updated planned']);
    const formPlanned = await page.locator('form [data-planned]').allTextContents();
    expect(formPlanned).toContain('inbox.updated planned');
    expect(formPlanned).not.toContain('contact.created planned');

    // The health chart is as wide as the page's content.
    await page.goto(`${t.url}/dashboard/webhooks/${healthy}`);
    const img = await page.locator('img.chart').boundingBox();
    const content = await page.locator('img.chart').locator('xpath=..').boundingBox();
    const widths = { img: img!.width, main: content!.width };
    expect(widths.img).toBeGreaterThan(widths.main * 0.98);
    expect(pc.problems).toEqual([]);
  });
});
