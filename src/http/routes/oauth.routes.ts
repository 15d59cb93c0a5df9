import { adminOnly, publicAccess } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { listOAuthGrants, revokeOAuthGrant } from '../../oauth/grants.service.js';
import { grantResponse, toGrantResponse } from '../../oauth/grants.schema.js';
import { outText, pageOf } from '../../platform/output.js';
import { z } from 'zod';
import {
  ACCOUNT_MCP_PATH,
  agentMcpPath,
  issuerOf,
  OAUTH_MOUNT,
  resourceOfPath,
  scopesOf,
} from '../../oauth/resources.js';
import { notFound } from '../../platform/errors.js';
import type { AppContext } from '../context.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

const PRM = '/.well-known/oauth-protected-resource';

/** RFC 9728 metadata of one MCP endpoint: which authorization server issues its tokens, and its scopes. */
function protectedResourceMetadata(ctx: AppContext, path: string) {
  const { publicUrl } = ctx.state;
  const resource = resourceOfPath(publicUrl, path);
  if (!resource) throw notFound('Protected resource');
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.body = {
    resource: resource.url,
    authorization_servers: [issuerOf(publicUrl)],
    scopes_supported: scopesOf(resource),
    bearer_methods_supported: ['header'],
    resource_name:
      resource.kind === 'agent' ? `Switchboard agent ${resource.agentId} (MCP)` : 'Switchboard account (MCP)',
  };
}

const prmDoc = {
  tag: 'OAuth' as const,
  response: z.object({
    resource: outText(),
    authorization_servers: z.array(outText()),
    scopes_supported: z.array(outText()),
    bearer_methods_supported: z.array(z.literal('header')),
    resource_name: outText(),
  }),
};

// RFC 8414 §3: the authorization server's metadata, written by the provider (src/http/oauth/mount.ts). The fields
// a client needs to start are required here; the provider adds the others it supports.
const asMetadataDoc = {
  tag: 'OAuth' as const,
  response: z.looseObject({
    issuer: outText(),
    authorization_endpoint: outText(),
    token_endpoint: outText(),
    registration_endpoint: outText().optional(),
    jwks_uri: outText().optional(),
    scopes_supported: z.array(outText()).optional(),
    code_challenge_methods_supported: z.array(outText()).optional(),
  }),
};
const PROVIDER_METADATA_PATH = '/.well-known/openid-configuration';

export function registerOAuthRoutes(api: ApiRouter, deps: Deps) {
  // The path-suffixed forms of the issuer PUBLIC_URL/oauth: RFC 8414 §3.1, and OpenID Connect Discovery's.
  api.get(
    `/.well-known/oauth-authorization-server${OAUTH_MOUNT}`,
    publicAccess,
    {
      ...asMetadataDoc,
      operationId: 'getAuthorizationServerMetadata',
      summary: 'Authorization server metadata (RFC 8414)',
    },
    (ctx) => ctx.state.authorizationServer(PROVIDER_METADATA_PATH),
  );
  api.get(
    `${PROVIDER_METADATA_PATH}${OAUTH_MOUNT}`,
    publicAccess,
    {
      ...asMetadataDoc,
      operationId: 'getOpenIdConfiguration',
      summary: 'Authorization server metadata (OpenID Connect Discovery form)',
    },
    (ctx) => ctx.state.authorizationServer(PROVIDER_METADATA_PATH),
  );

  // The path-suffixed forms (RFC 9728 §3.1) for each MCP endpoint; the root form describes /v1/mcp, for
  // clients that only look at the root.
  api.get(
    `${PRM}${ACCOUNT_MCP_PATH}`,
    publicAccess,
    {
      ...prmDoc,
      operationId: 'getAccountMcpResourceMetadata',
      summary: 'Protected-resource metadata of /v1/mcp (RFC 9728)',
    },
    (ctx) => protectedResourceMetadata(ctx, ACCOUNT_MCP_PATH),
  );
  api.get(
    `${PRM}/v1/agents/:agentId/mcp`,
    publicAccess,
    {
      ...prmDoc,
      operationId: 'getAgentMcpResourceMetadata',
      summary: "Protected-resource metadata of an agent's MCP endpoint (RFC 9728)",
    },
    (ctx) => protectedResourceMetadata(ctx, agentMcpPath(ctx.params.agentId!)),
  );
  api.get(
    PRM,
    publicAccess,
    { ...prmDoc, operationId: 'getMcpResourceMetadata', summary: 'Protected-resource metadata (root form: /v1/mcp)' },
    (ctx) => protectedResourceMetadata(ctx, ACCOUNT_MCP_PATH),
  );

  api.get(
    '/v1/oauth/grants',
    adminOnly,
    {
      operationId: 'listOAuthGrants',
      summary: 'List OAuth grants',
      tag: 'OAuth',
      query: pageQuery,
      response: pageOf(grantResponse),
    },
    async (ctx) => {
      const page = await listOAuthGrants(deps, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
      ctx.body = mapPage(page, toGrantResponse);
    },
  );

  api.delete(
    '/v1/oauth/grants/:grantId',
    adminOnly,
    { operationId: 'revokeOAuthGrant', summary: 'Revoke an OAuth grant and its tokens', tag: 'OAuth', response: null },
    async (ctx) => {
      await revokeOAuthGrant(deps, callerOf(ctx), ctx.params.grantId!);
      ctx.status = 204;
    },
  );
}
