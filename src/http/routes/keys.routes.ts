import { adminOnly, agentKeyMinting, requireScope } from '../../auth/access.js';
import {
  accountKeyInput,
  agentKeyInput,
  keyListQuery,
  keyPatch,
  keyResponse,
  keyWithSecretResponse,
  toKeyResponse,
  toKeyWithSecret,
} from '../../keys/keys.schema.js';
import { pageOf } from '../../platform/output.js';
import * as keys from '../../keys/keys.service.js';
import type { Deps } from '../../app/deps.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import type { AppContext } from '../context.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';
import { z } from 'zod';
import { namedLimitsInput, namedLimitsResponse } from '../../keys/named-limits.js';
import { getAgentKeyLimits, setAgentKeyLimits } from '../../keys/agent-limits.service.js';
import { idString } from '../../platform/output.js';
import { getKeyUsage, usageQuery, usageResponse } from '../../keys/key-usage.service.js';

const agentLimitsInput = z.object({ rateLimits: namedLimitsInput }).strict();
const agentLimitsResponse = z
  .object({ agentId: idString('agt'), rateLimits: namedLimitsResponse })
  .meta({ id: 'AgentKeyRateLimits', description: "Named rate limits shared by all of an agent's per-agent keys" });

const tag = 'Keys';
const listQuery = pageQuery.extend(keyListQuery.shape);
const KEY_EXAMPLE = {
  id: 'key_3Rt9UaPq0LmXw2Bv6Nc1',
  name: 'CI',
  keyType: 'account',
  keyPrefix: 'ca_acct_',
  agentId: null,
  scopes: ['read:agents'],
  status: 'active',
  expiresAt: null,
  allowedIps: [],
  spendCapCredits: null,
  spentCredits: 0,
  spendCapInterval: null,
  spendCapRefillDay: null,
  remainingCredits: null,
  nextRefillAt: null,
  rateLimits: [],
  lastUsedAt: null,
  lastUsedIp: null,
  createdAt: '2026-11-01T09:30:00.000Z',
  rotationGraceUntil: null,
  key: '<API_KEY>',
};

export function registerKeyRoutes(api: ApiRouter, deps: Deps) {
  const id = (ctx: AppContext) => ctx.params.keyId!;

  api.post(
    '/v1/api_keys',
    adminOnly,
    {
      operationId: 'createAccountKey',
      summary: 'Create an account key',
      tag,
      body: accountKeyInput,
      response: keyWithSecretResponse,
      status: 201,
      errors: ['invalid_scope'],
      description: 'The secret (`key`) is shown in this answer only.',
      examples: { request: { name: 'CI', scopes: ['read:agents'] }, response: KEY_EXAMPLE },
    },
    async (ctx) => {
      const issued = await keys.createAccountKey(deps, callerOf(ctx), parseInput(accountKeyInput, ctx.request.body));
      ctx.status = 201;
      ctx.body = toKeyWithSecret(issued.row, issued.secret);
    },
    idempotent('key'),
  );

  api.get(
    '/v1/api_keys',
    requireScope('read:api_keys'),
    { operationId: 'listApiKeys', summary: 'List key metadata', tag, query: listQuery, response: pageOf(keyResponse) },
    async (ctx) => {
      const query = parseInput(listQuery, ctx.query);
      const page = await keys.listKeys(deps, principalOf(ctx).accountId, query, { agentId: query.agentId });
      ctx.body = mapPage(page, toKeyResponse);
    },
  );

  api.get(
    '/v1/api_keys/:keyId',
    requireScope('read:api_keys'),
    { operationId: 'getApiKey', summary: "Get a key's metadata", tag, response: keyResponse },
    async (ctx) => {
      ctx.body = toKeyResponse(await keys.getKey(deps, principalOf(ctx).accountId, id(ctx)));
    },
  );

  api.patch(
    '/v1/api_keys/:keyId',
    adminOnly,
    {
      operationId: 'updateApiKey',
      summary: 'Edit a key (name, allowedIps, expiresAt, spendCapCredits)',
      tag,
      body: keyPatch,
      response: keyResponse,
      errors: ['conflict'],
      examples: { request: { name: 'CI (deploys)', allowedIps: ['203.0.113.0/24'], spendCapCredits: 500 } },
    },
    async (ctx) => {
      ctx.body = toKeyResponse(
        await keys.editKey(deps, callerOf(ctx), id(ctx), parseInput(keyPatch, ctx.request.body)),
      );
    },
  );

  api.post(
    '/v1/api_keys/:keyId/rotate',
    adminOnly,
    {
      operationId: 'rotateApiKey',
      summary: 'Rotate a key',
      tag,
      response: keyWithSecretResponse,
      errors: ['conflict'],
      description:
        'A new secret, shown once; the old one works until `rotationGraceUntil` (requests made with it get Deprecation and Sunset headers).',
    },
    async (ctx) => {
      const issued = await keys.rotateKey(deps, callerOf(ctx), id(ctx));
      ctx.body = toKeyWithSecret(issued.row, issued.secret);
    },
  );

  api.post(
    '/v1/api_keys/:keyId/deactivate',
    adminOnly,
    {
      operationId: 'deactivateApiKey',
      summary: 'Deactivate a key (effective on the next request)',
      tag,
      response: keyResponse,
    },
    async (ctx) => {
      ctx.body = toKeyResponse(await keys.deactivateKey(deps, callerOf(ctx), id(ctx)));
    },
  );

  api.delete(
    '/v1/api_keys/:keyId',
    adminOnly,
    { operationId: 'deleteApiKey', summary: 'Delete a key (effective on the next request)', tag, response: null },
    async (ctx) => {
      await keys.deleteKey(deps, callerOf(ctx), id(ctx));
      ctx.status = 204;
    },
  );

  api.post(
    '/v1/agents/:agentId/api-keys',
    agentKeyMinting,
    {
      operationId: 'createAgentKey',
      summary: 'Mint a per-agent key',
      tag,
      body: agentKeyInput,
      response: keyWithSecretResponse,
      status: 201,
      errors: ['invalid_scope'],
      description:
        'keyType and agentId come from the server. Scopes default to the agent read scopes; account scopes, `*` and write:api_keys are refused with 400 invalid_scope. ' +
        'Also answers at POST /v1/agents/{agentId}/api_keys, the spelling of the other key routes (docs/adr/0047-key-route-spelling.md).',
      examples: { request: { name: 'Support bot', scopes: ['agent:config:read', 'agent:trigger'] } },
    },
    async (ctx) => {
      const input = parseInput(agentKeyInput, ctx.request.body);
      const issued = await keys.mintAgentKey(deps, callerOf(ctx), ctx.params.agentId!, input);
      ctx.status = 201;
      ctx.body = toKeyWithSecret(issued.row, issued.secret);
    },
    { ...idempotent('key'), alias: '/v1/agents/:agentId/api_keys' },
  );

  api.get(
    '/v1/agents/:agentId/key-rate-limits',
    requireScope('read:api_keys'),
    {
      operationId: 'getAgentKeyRateLimits',
      summary: "The named rate limits shared by an agent's per-agent keys",
      tag,
      response: agentLimitsResponse,
    },
    async (ctx) => {
      ctx.body = await getAgentKeyLimits(deps, principalOf(ctx).accountId, ctx.params.agentId!);
    },
  );

  api.put(
    '/v1/agents/:agentId/key-rate-limits',
    adminOnly,
    {
      operationId: 'updateAgentKeyRateLimits',
      summary: "Set the named rate limits shared by an agent's per-agent keys",
      tag,
      body: agentLimitsInput,
      response: agentLimitsResponse,
      description:
        "Each limit counts every request made with any of the agent's per-agent keys; a key's own limits apply as well. An empty list removes them.",
      examples: { request: { rateLimits: [{ name: 'burst', limit: 20, durationMs: 1000 }] } },
    },
    async (ctx) => {
      const input = parseInput(agentLimitsInput, ctx.request.body);
      ctx.body = await setAgentKeyLimits(deps, callerOf(ctx), ctx.params.agentId!, input.rateLimits);
    },
  );

  api.get(
    '/v1/api_keys/:keyId/usage',
    requireScope('read:api_keys'),
    {
      operationId: 'getApiKeyUsage',
      summary: "A key's requests per hour, by outcome",
      tag,
      query: usageQuery,
      response: usageResponse,
    },
    async (ctx) => {
      const query = parseInput(usageQuery, ctx.query);
      ctx.body = await getKeyUsage(deps, principalOf(ctx).accountId, id(ctx), query);
    },
  );

  api.get(
    '/v1/agents/:agentId/api_keys/:keyId/usage',
    requireScope('read:api_keys'),
    {
      operationId: 'getAgentKeyUsage',
      summary: "A per-agent key's requests per hour, by outcome",
      tag,
      query: usageQuery,
      response: usageResponse,
      description: "The key must be one of this agent's per-agent keys (else 404).",
    },
    async (ctx) => {
      const query = parseInput(usageQuery, ctx.query);
      ctx.body = await getKeyUsage(deps, principalOf(ctx).accountId, id(ctx), query, ctx.params.agentId!);
    },
  );
}
