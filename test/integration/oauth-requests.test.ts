import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import {
  authorizeByHand,
  authorizeUrl,
  Browserless,
  csrfOf,
  formAction,
  pkce,
  REDIRECT_URI,
  registerClient,
  tokenRequest,
} from '../helpers/oauth.js';
import { createTestContext, TEST_APP_SECRET, type TestContext } from '../helpers/test-context.js';
import { csrfToken } from '../../src/http/oauth/csrf.js';
import { csrfKey } from '../../src/http/oauth/keys.js';

// Requests a well-behaved client never sends, and people who may not grant what is asked: every refusal in
// the RFCs' terms (or a clear page), no stack, no secret, nothing granted.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let member: { email: string; password: string };
let agentA: string;
let clientId: string;

const resourceA = () => `${t.url}/v1/agents/${agentA}/mcp`;
const grantCount = async () =>
  Number((await t.deps.db('oauth_grants').count<{ count: string }[]>({ count: '*' }))[0]!.count);

/** Starts a flow and signs in; returns the consent page and the cookie-holding browser. */
async function signedIn(who: { email: string; password: string }, params: Record<string, string> = {}) {
  const b = new Browserless(t.url);
  const login = await b.follow(
    authorizeUrl(t.url, {
      client_id: clientId,
      resource: resourceA(),
      scope: 'agent:config:read',
      code_challenge: pkce().challenge,
      ...params,
    }),
  );
  const consent = await b.postForm(formAction(login.text)!, [
    ['csrf', csrfOf(login.text)!],
    ['email', who.email],
    ['password', who.password],
  ]);
  return { b, login, consent };
}

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  member = { email: `member-${Date.now()}@example.com`, password: 'member password 1' };
  await api.post('/v1/team/members', { token: owner.token, body: { ...member, role: 'member' } });
  agentA = await createAgent(t, owner.accountId, 'Alpha');
  clientId = (await registerClient(t.url)).body.client_id;
});
afterAll(() => t.close());

describe('authorization requests', () => {
  it('refuses a missing PKCE challenge and the plain method, back at the client with invalid_request', async () => {
    for (const params of [
      { code_challenge: undefined },
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
    ]) {
      const res = await new Browserless(t.url).follow(
        authorizeUrl(t.url, { client_id: clientId, resource: resourceA(), ...params }),
      );
      const back = new URL(res.location!);
      expect(back.origin + back.pathname).toBe(REDIRECT_URI);
      expect(back.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('refuses a redirect URI that was not registered with a page, never a redirect', async () => {
    const res = await new Browserless(t.url).follow(
      authorizeUrl(t.url, {
        client_id: clientId,
        redirect_uri: 'https://evil.example/cb',
        code_challenge: pkce().challenge,
        resource: resourceA(),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.text).toContain('redirect_uri');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.text).not.toMatch(/ at .*\.js|node_modules/);
  });

  it('refuses a missing resource and one that is not our MCP endpoint with invalid_target', async () => {
    for (const resource of [undefined, 'https://other.example/mcp', `${t.url}/v1/agents`]) {
      const res = await new Browserless(t.url).follow(
        authorizeUrl(t.url, { client_id: clientId, code_challenge: pkce().challenge, resource }),
      );
      expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_target');
    }
  });

  it('refuses an unknown client and answers a wrong password with the same generic message', async () => {
    const unknown = await new Browserless(t.url).follow(
      authorizeUrl(t.url, { client_id: 'nobody', code_challenge: pkce().challenge, resource: resourceA() }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('invalid_client');
    const wrong = await signedIn({ email: owner.email, password: 'not the password' });
    expect(wrong.consent.status).toBe(401);
    expect(wrong.consent.text).toContain('Email or password is incorrect.');
    expect(wrong.consent.text).not.toContain('not the password');
  });
});

describe('the consent page', () => {
  it('shows the sign-in form to a consent post without a signed-in person, and grants nothing', async () => {
    const b = new Browserless(t.url);
    const login = await b.follow(
      authorizeUrl(t.url, { client_id: clientId, resource: resourceA(), code_challenge: pkce().challenge }),
    );
    const confirm = formAction(login.text)!.replace(/\/login$/, '/confirm');
    const uid = /interaction\/([^/]+)\//.exec(confirm)![1]!;
    const before = await grantCount();
    // The login form's token is not the consent form's.
    expect(
      (
        await b.postForm(confirm, [
          ['csrf', csrfOf(login.text)!],
          ['decision', 'allow'],
          ['scope', 'agent:config:read'],
        ])
      ).status,
    ).toBe(400);
    // With a valid consent token (computed as the server would) it is still the sign-in form.
    const res = await b.postForm(confirm, [
      ['csrf', csrfToken(csrfKey(TEST_APP_SECRET), uid, 'confirm')],
      ['decision', 'allow'],
      ['scope', 'agent:config:read'],
    ]);
    expect(res.status).toBe(401);
    expect(res.text).toContain('Sign in first.');
    expect(res.text).toContain('name="password"');
    expect(await grantCount()).toBe(before);
  });

  it('lets a member grant agent scopes (policy account_keys) but never account scopes, even with a hand-made post', async () => {
    await api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting: 'account_keys' } });
    const agent = await authorizeByHand(t.url, {
      clientId,
      resource: resourceA(),
      scope: 'agent:config:read',
      email: member.email,
      password: member.password,
      choose: ['agent:config:read'],
    });
    await api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting: 'admins' } });
    expect(agent.code).toBeTruthy();

    const { b, consent } = await signedIn(member, { resource: `${t.url}/v1/mcp`, scope: 'read:agents' });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('Only owners and admins');
    expect(consent.text).not.toContain('value="allow"');
    const before = await grantCount();
    const forged = await b.postForm(formAction(consent.text)!, [
      ['csrf', csrfOf(consent.text)!],
      ['decision', 'allow'],
      ['scope', 'read:agents'],
    ]);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('Only owners and admins');
    expect(await grantCount()).toBe(before);
  });

  it('refuses an agent of another account, a scope it did not offer, and an empty choice', async () => {
    const stranger = await signupAccount(api, 'Other');
    const theirs = await createAgent(t, stranger.accountId, 'Theirs');
    const foreign = await signedIn(owner, { resource: `${t.url}/v1/agents/${theirs}/mcp` });
    expect(foreign.consent.text).toContain('This agent is not in your account.');
    expect(foreign.consent.text).not.toContain('Theirs');

    const { b, consent } = await signedIn(owner);
    const post = (scopes: string[]) =>
      b.postForm(formAction(consent.text)!, [
        ['csrf', csrfOf(consent.text)!],
        ['decision', 'allow'],
        ...scopes.map((s): [string, string] => ['scope', s]),
      ]);
    expect((await post(['agent:trigger'])).status).toBe(400);
    expect((await post([])).text).toContain('Choose at least one permission');
  });

  it('sends a denial back to the client as access_denied and grants nothing', async () => {
    const before = await grantCount();
    const { b, consent } = await signedIn(owner);
    const res = await b.postForm(formAction(consent.text)!, [
      ['csrf', csrfOf(consent.text)!],
      ['decision', 'deny'],
    ]);
    expect(new URL(res.location!).searchParams.get('error')).toBe('access_denied');
    expect(await grantCount()).toBe(before);
  });

  it('rejects form bodies that are not a small, well-formed form, and forged or cross-site posts', async () => {
    const { b, consent } = await signedIn(owner);
    const action = formAction(consent.text)!;
    const csrf = csrfOf(consent.text)!;
    const send = (body: string, headers: Record<string, string> = {}) =>
      b.request(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    const json = await send(JSON.stringify({ decision: 'allow' }), { 'content-type': 'application/json' });
    expect([json.status, json.text.includes('application/x-www-form-urlencoded')]).toEqual([415, true]);
    const big = await send(`csrf=${csrf}&decision=allow&pad=${'x'.repeat(9000)}`);
    expect([big.status, big.text.includes('limited to 8192 bytes')]).toEqual([413, true]);
    expect((await send(`csrf=${csrf}&decision=allow&scope=%E0%A4%A`)).status).toBe(400);
    expect((await send(`csrf=${csrf}&decision=allow&scope=%00`)).status).toBe(400);
    expect((await send('decision=allow&scope=agent:config:read')).status).toBe(400);
    expect((await send('csrf=forged&decision=allow&scope=agent:config:read')).status).toBe(400);
    expect((await send(`csrf=${csrf}&csrf=${csrf}&decision=allow`)).status).toBe(400);
    expect(
      (await send(`csrf=${csrf}&decision=allow&scope=agent:config:read`, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    // Still usable after all that: the refusals changed nothing.
    const ok = await send(`csrf=${csrf}&decision=allow&scope=agent:config:read`);
    expect(ok.status).toBe(303);
  });
});

describe('token and registration endpoints', () => {
  it('answers bad exchanges with invalid_grant / invalid_client and no stack', async () => {
    const flow = await authorizeByHand(t.url, {
      clientId,
      resource: resourceA(),
      scope: 'agent:config:read',
      email: owner.email,
      password: owner.password,
      choose: ['agent:config:read'],
    });
    const base = {
      grant_type: 'authorization_code',
      code: flow.code!,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
    };
    const wrongVerifier = await tokenRequest(t.url, { ...base, code_verifier: pkce().verifier });
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const noVerifier = await tokenRequest(t.url, base);
    expect(noVerifier.body.error).toBe('invalid_grant');
    const unknownClient = await tokenRequest(t.url, { ...base, client_id: 'nobody', code_verifier: flow.verifier });
    expect([unknownClient.status, unknownClient.body.error]).toEqual([401, 'invalid_client']);
    const garbage = await tokenRequest(t.url, { ...base, code: 'nope', code_verifier: flow.verifier });
    expect(garbage.body.error).toBe('invalid_grant');
    for (const r of [wrongVerifier, noVerifier, unknownClient, garbage])
      expect(JSON.stringify(r.body)).not.toMatch(/stack|\.js:\d+/);
  });

  it('refuses registrations without redirect URIs or with an implicit response type', async () => {
    const none = await registerClient(t.url, { redirect_uris: [] });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/^invalid_(client_metadata|redirect_uri)$/);
    const implicit = await registerClient(t.url, { response_types: ['token'] });
    expect(implicit.body.error).toBe('invalid_client_metadata');
  });
});
