import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Every timestamp the API takes is read in any RFC 3339 form (timestampInput, src/platform/input.ts); every answer
// writes UTC with milliseconds.

let t: TestContext;
let api: Client;
let owner: SetupAccount;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  owner = await setupAccount(t);
});
afterAll(() => t?.close());

/** A date a few days ahead, as YYYY-MM-DD (key expiries must be in the future). */
const ahead = (days: number) => new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);

describe('a timestamp in a request', () => {
  it("takes a key's expiresAt without milliseconds, with an offset, or lowercase, and answers it in UTC with ms", async () => {
    const day = ahead(10);
    for (const [given, answered] of [
      [`${day}T00:00:00Z`, `${day}T00:00:00.000Z`],
      [`${day}T02:00:00.5+02:00`, `${day}T00:00:00.500Z`],
      [`${day}t00:00:00.123456z`, `${day}T00:00:00.123Z`],
    ]) {
      const res = await api.post('/v1/api_keys', { token: owner.token, body: { name: given, expiresAt: given } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.expiresAt).toBe(answered);
    }
  });

  it("takes an enable's recoverSince in any RFC 3339 form", async () => {
    const hook = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['contact.created'] },
    });
    const path = `/v1/webhooks/${hook.body.id}`;
    await api.post(`${path}/disable`, { token: owner.token });
    const since = new Date(Date.now() - 3600_000).toISOString().replace(/\.\d{3}Z$/, '-00:30');
    const res = await api.post(`${path}/enable`, { token: owner.token, body: { recoverSince: since } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('refuses what is not RFC 3339, or names no real day, with a 400 saying what it takes', async () => {
    for (const bad of [ahead(10), `${ahead(10)} 00:00:00Z`, '2031-02-29T00:00:00Z', 'tomorrow']) {
      const res = await api.post('/v1/api_keys', { token: owner.token, body: { name: 'x', expiresAt: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.details.fields).toEqual([
        { field: 'expiresAt', message: 'must be an RFC 3339 timestamp, e.g. 2026-12-01T00:00:00Z' },
      ]);
    }
  });
});
