import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { authorizeByHand, obtainTokens, REDIRECT_URI, registerClient, tokenRequest } from '../helpers/oauth.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { hashOAuthId } from '../../src/oauth/oauth-store.js';

// A code is redeemed once (RFC 6749 §4.1.2) and a rotated refresh token is used once (RFC 9700 §4.14), even
// when the same one arrives twenty times at once on two instances: one request wins, the others are replays,
// and a replay ends the grant, so no token of it works afterwards.

const RACERS = 20;

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
let otherUrl: string;
const resource = () => `${t.url}/v1/agents/${agentId}/mcp`;
const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const mcpHeaders = { accept: 'application/json, text/event-stream' };
const mcpStatus = async (token: string) =>
  (await api.post(`/v1/agents/${agentId}/mcp`, { token, body: rpc, headers: mcpHeaders })).status;
/** Half of the racers go to a second instance on the same database. */
const urlOf = (i: number) => (i % 2 ? otherUrl : t.url);

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId, 'Alpha');
  otherUrl = (await t.startAnotherServer()).url;
});
afterAll(() => t.close());

const readOnly = () => ({
  resource: resource(),
  scope: 'agent:config:read',
  email: owner.email,
  password: owner.password,
  choose: ['agent:config:read'],
});
const consentedCode = async (clientId: string) => authorizeByHand(t.url, { clientId, ...readOnly() });
const exchangeFields = (clientId: string, flow: { code: string | null; verifier: string }) => ({
  grant_type: 'authorization_code',
  code: flow.code!,
  code_verifier: flow.verifier,
  redirect_uri: REDIRECT_URI,
  client_id: clientId,
});
const race = (fields: Record<string, string>) =>
  Promise.all(Array.from({ length: RACERS }, (_, i) => tokenRequest(urlOf(i), fields)));
const expectReplays = (results: Array<{ status: number; body: Record<string, any> }>) => {
  const losers = results.filter((x) => x.status !== 200);
  for (const r of losers) expect([r.status, r.body.error]).toEqual([400, 'invalid_grant']);
};

describe('single use under concurrency', () => {
  it(`gives tokens to one of ${RACERS} simultaneous exchanges of a code, and none of them work after`, async () => {
    const clientId = (await registerClient(t.url)).body.client_id as string;
    const results = await race({ ...exchangeFields(clientId, await consentedCode(clientId)), resource: resource() });

    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expectReplays(results);
    // The losers were replays: the grant is gone, and with it the winner's access and refresh tokens.
    expect(await mcpStatus(winners[0]!.body.access_token)).toBe(401);
    const refresh = await tokenRequest(t.url, {
      grant_type: 'refresh_token',
      refresh_token: winners[0]!.body.refresh_token,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    expect(await t.deps.db('oauth_grants').where({ client_id: clientId }).first()).toBeUndefined();
  });

  it('lets a code exchanged once, alone, keep working (the race is what revokes)', async () => {
    const tokens = await obtainTokens(t.url, readOnly());
    expect(await mcpStatus(tokens.access_token)).toBe(200);
  });

  it(`rotates a refresh token for exactly one of ${RACERS} simultaneous refreshes; then no token works`, async () => {
    const first = await obtainTokens(t.url, readOnly());
    const refresh = (token: string) => ({
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: first.clientId,
    });
    const results = await race({ ...refresh(first.refresh_token), resource: resource() });

    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expectReplays(results);
    const won = winners[0]!.body;
    for (const token of [first.access_token, won.access_token]) expect(await mcpStatus(token)).toBe(401);
    const chain = await tokenRequest(t.url, refresh(won.refresh_token));
    expect(chain.body.error).toBe('invalid_grant');
  });
});

describe('authorization responses and clients', () => {
  it('names the issuer in the authorization response (RFC 9207)', async () => {
    const clientId = (await registerClient(t.url)).body.client_id as string;
    const flow = await consentedCode(clientId);
    expect(flow.code).toBeTruthy();
    expect(flow.iss).toBe(`${t.url}/oauth`);
    const metadata = await api.get('/.well-known/oauth-authorization-server/oauth');
    expect(metadata.body.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('answers 401 invalid_client to a client that was deleted, for a code and for a refresh token', async () => {
    const tokens = await obtainTokens(t.url, readOnly());
    const clientId = (await registerClient(t.url)).body.client_id as string;
    const flow = await consentedCode(clientId);
    const clients = [clientId, tokens.clientId].map(hashOAuthId);
    await t.deps.db('oauth_store').where({ model: 'Client' }).whereIn('id_hash', clients).delete();

    const exchange = await tokenRequest(t.url, exchangeFields(clientId, flow));
    expect([exchange.status, exchange.body.error]).toEqual([401, 'invalid_client']);
    const refresh = await tokenRequest(t.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect([refresh.status, refresh.body.error]).toEqual([401, 'invalid_client']);
  });
});
