import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnApiProcess, type ApiChild } from '../helpers/api-child.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { authorizeUrl, Browserless, csrfOf, formAction, pkce, registerClient } from '../helpers/oauth.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Sign-in attempts are limited per client IP and per email, in Redis, so two API processes count together:
// the budget spent on one is spent on the other. Each test comes from its own address (X-Forwarded-For
// behind one trusted proxy hop) so that the budgets of one test never decide another's; the sign-ups and the
// OAuth form come from 127.0.0.1, fewer than PER_IP attempts in all.

const PER_IP = 10;
const LIMITS = {
  SIGN_IN_LIMITS: `ip=${PER_IP},email=3`,
  TRUST_PROXY_HOPS: '1',
};

let t: TestContext;
let child: ApiChild;
let apis: [Client, Client];
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext(LIMITS);
  child = await spawnApiProcess(t, LIMITS);
  apis = [client(t.url), client(child.url)];
  owner = await signupAccount(apis[0]);
});
afterAll(async () => {
  child?.proc.kill('SIGTERM');
  await t.close();
});

/** Attempt `i` goes to one process or the other, from `ip`. */
const login = (i: number, ip: string, email: string, password: string) =>
  apis[i % 2]!.post('/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

function expectLimited(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
}

describe('sign-in limits across two processes', () => {
  it('stops guessing one email after its budget, even from many addresses; the right password too', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await login(i, `198.51.100.${10 + i}`, owner.email, 'wrong password')).status).toBe(401);
    }
    expectLimited(await login(3, '198.51.100.20', owner.email, 'wrong password'));
    expectLimited(await login(4, '198.51.100.21', owner.email.toUpperCase(), owner.password));
    // Another person, from the same addresses, is not held back.
    const other = await signupAccount(apis[1]);
    expect((await login(5, '198.51.100.10', other.email, other.password)).status).toBe(200);
  });

  it('never counts a successful sign-in against its email', async () => {
    const person = await signupAccount(apis[0]);
    for (let i = 0; i < 5; i++) {
      expect((await login(i, `203.0.113.${i + 1}`, person.email, person.password)).status).toBe(200);
    }
  });

  it('limits every attempt from one address, login and signup alike, whatever the email', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < PER_IP; i++) {
      expect((await login(i, ip, `nobody${i}@example.com`, 'wrong password')).status).toBe(401);
    }
    expectLimited(await login(PER_IP, ip, owner.email, owner.password));
    const signup = await apis[1].post('/v1/auth/signup', {
      body: { accountName: 'Late', email: 'late@example.com', password: 'long enough pw' },
      headers: { 'x-forwarded-for': ip },
    });
    expectLimited(signup);
    // The refused signup created nothing; another address may still sign up with that email.
    const elsewhere = await apis[0].post('/v1/auth/signup', {
      body: { accountName: 'Late', email: 'late@example.com', password: 'long enough pw' },
      headers: { 'x-forwarded-for': '192.0.2.78' },
    });
    expect(elsewhere.status).toBe(201);
  });

  it('answers the OAuth sign-in form with a 429 page and Retry-After once the email budget is spent', async () => {
    const person = await signupAccount(apis[0]);
    const agentId = await createAgent(t, person.accountId, 'Alpha');
    const clientId = (await registerClient(t.url)).body.client_id as string;
    const b = new Browserless(t.url);
    const resource = `${t.url}/v1/agents/${agentId}/mcp`;
    const params = { client_id: clientId, resource, scope: 'agent:config:read', code_challenge: pkce().challenge };
    const page = await b.follow(authorizeUrl(t.url, params));
    const post = (password: string) =>
      b.postForm(formAction(page.text)!, [
        ['csrf', csrfOf(page.text)!],
        ['email', person.email],
        ['password', password],
      ]);
    for (let i = 0; i < 3; i++) expect((await post('wrong password')).status).toBe(401);
    const limited = await post(person.password);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/text\/html/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many sign-in attempts');
    // The API shares the budget: the same email is refused there too.
    expectLimited(await login(1, '198.51.100.99', person.email, person.password));
  });
});
