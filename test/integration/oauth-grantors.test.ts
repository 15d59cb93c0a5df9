import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { csrfOf, formAction, obtainTokens, registerClient, authorizeUrl, Browserless, pkce } from '../helpers/oauth.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Who may grant what (docs/mcp.md#who-may-grant-what-over-oauth): a person grants a client no more than a key they could mint.
// Owners and admins grant either resource; a member grants an agent only under agentKeyMinting=account_keys.
// The rule is judged again on every request, so a grant stops working when its grantor leaves the account,
// loses the role that allowed it, or the policy no longer lets them grant it.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const mcpHeaders = { accept: 'application/json, text/event-stream' };
const resource = () => `${t.url}/v1/agents/${agentId}/mcp`;
const mcpStatus = async (path: string, token: string) =>
  (await api.post(path, { token, body: rpc, headers: mcpHeaders })).status;
const setPolicy = (agentKeyMinting: 'admins' | 'account_keys') =>
  api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting } });

async function addPerson(role: 'member' | 'admin') {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const person = { email, password: `${role} password 1` };
  const res = await api.post('/v1/team/members', { token: owner.token, body: { ...person, role } });
  return { ...person, id: res.body.id as string };
}

const agentGrant = (who: { email: string; password: string }, choose = ['agent:config:read', 'agent:trigger']) =>
  obtainTokens(t.url, { resource: resource(), scope: choose.join(' '), ...credentialsOf(who), choose });
const credentialsOf = (who: { email: string; password: string }) => ({ email: who.email, password: who.password });

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId, 'Alpha');
});
afterAll(() => t.close());

describe('consent follows the agentKeyMinting policy', () => {
  it('refuses a member any agent under admins (page and hand-made post), and lets an admin grant', async () => {
    const member = await addPerson('member');
    const clientId = (await registerClient(t.url)).body.client_id as string;
    const b = new Browserless(t.url);
    const challenge = pkce().challenge;
    const params = { client_id: clientId, resource: resource(), scope: 'agent:trigger', code_challenge: challenge };
    const login = await b.follow(authorizeUrl(t.url, params));
    const consent = await b.postForm(formAction(login.text)!, [
      ['csrf', csrfOf(login.text)!],
      ['email', member.email],
      ['password', member.password],
    ]);
    expect(consent.text).toContain('agentKeyMinting policy is admins');
    expect(consent.text).not.toContain('value="allow"');
    const forged = await b.postForm(formAction(consent.text)!, [
      ['csrf', csrfOf(consent.text)!],
      ['decision', 'allow'],
      ['scope', 'agent:trigger'],
    ]);
    expect(forged.status).toBe(400);
    expect(await t.deps.db('oauth_grants').where({ client_id: clientId }).first()).toBeUndefined();

    const admin = await addPerson('admin');
    const tokens = await agentGrant(admin);
    expect(await mcpStatus(`/v1/agents/${agentId}/mcp`, tokens.access_token)).toBe(200);
  });

  it('lets a member grant an agent under account_keys; it stops when the policy goes back to admins', async () => {
    const member = await addPerson('member');
    const admin = await addPerson('admin');
    await setPolicy('account_keys');
    const memberTokens = await agentGrant(member);
    const adminTokens = await agentGrant(admin);
    expect(await mcpStatus(`/v1/agents/${agentId}/mcp`, memberTokens.access_token)).toBe(200);

    await setPolicy('admins');
    expect(await mcpStatus(`/v1/agents/${agentId}/mcp`, memberTokens.access_token)).toBe(401);
    expect(await mcpStatus(`/v1/agents/${agentId}/mcp`, adminTokens.access_token)).toBe(200);
  });
});

describe('grants end with their grantor', () => {
  it('stop working when the grantor loses the role that allowed them, and when they leave the account', async () => {
    const admin = await addPerson('admin');
    const leaver = await addPerson('admin');
    const choose = ['read:agents'];
    const account = (who: { email: string; password: string }) =>
      obtainTokens(t.url, { resource: `${t.url}/v1/mcp`, scope: 'read:agents', ...credentialsOf(who), choose });
    const demoted = await account(admin);
    const left = await account(leaver);
    const agentOfLeaver = await agentGrant(leaver);
    const kept = await account(owner);
    for (const tokens of [demoted, left, kept]) expect(await mcpStatus('/v1/mcp', tokens.access_token)).toBe(200);

    // No route changes a role or removes a person yet; the rows change as such a route would change them.
    await t.deps.db('users').where({ id: admin.id }).update({ role: 'member' });
    const other = await signupAccount(api, 'Elsewhere');
    await t.deps.db('users').where({ id: leaver.id }).update({ account_id: other.accountId });

    expect(await mcpStatus('/v1/mcp', demoted.access_token)).toBe(401);
    expect(await mcpStatus('/v1/mcp', left.access_token)).toBe(401);
    expect(await mcpStatus(`/v1/agents/${agentId}/mcp`, agentOfLeaver.access_token)).toBe(401);
    expect(await mcpStatus('/v1/mcp', kept.access_token)).toBe(200);
  });
});
