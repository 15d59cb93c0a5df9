import { errors, interactionPolicy, Provider, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { findUserById } from '../../accounts/accounts.repository.js';
import { checkTargetUrl } from '../../platform/http-client.js';
import type { Deps } from '../../app/deps.js';
import { createStoreAdapter } from '../../oauth/oauth-store.js';
import { ALL_RESOURCE_SCOPES, issuerOf, OAUTH_MOUNT, parseResource, scopesOf } from '../../oauth/resources.js';
import { cookieKey, signingJwk } from './keys.js';
import { renderOAuthError } from './pages.js';

// The authorization server: oidc-provider (OpenID certified, maintained), configured down to what MCP clients
// need. Authorization code with PKCE S256 only, for every client; dynamic client registration (RFC 7591) and
// Client ID Metadata Documents; resource indicators (RFC 8707) naming exactly one MCP endpoint; opaque access
// tokens; refresh tokens rotated on every use (a replayed one revokes its whole grant); revocation (RFC 7009).
// No implicit flow, no device flow, no DPoP (the MCP endpoints take bearer tokens), no userinfo.

/** Every authorization goes through our consent page: no earlier grant or session skips it. */
function alwaysAskConsent(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy
    .get('consent')!
    .checks.add(
      new interactionPolicy.Check('switchboard_consent', 'a person must choose what this client may do', (ctx) =>
        ctx.oidc.result?.consent ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

export function createOAuthProvider(deps: Deps, publicUrl: string): Provider {
  const { oauth } = deps.config;

  const configuration: Configuration = {
    adapter: createStoreAdapter(
      deps,
      (model) =>
        new errors.InvalidGrant(`${model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`),
    ),
    jwks: { keys: [signingJwk(deps.config.appSecret)] },
    cookies: {
      keys: [cookieKey(deps.config.appSecret)],
      names: { session: 'sb_oauth_session', interaction: 'sb_oauth_interaction', resume: 'sb_oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    responseTypes: ['code'],
    // Our scopes are listed so that registration requests carrying them (MCP clients send the resource's
    // scopes_supported) validate; what a token gets is decided per resource, below and on the consent page.
    scopes: ['offline_access', ...ALL_RESOURCE_SCOPES],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // A client may only revoke its own tokens; another's is answered 200 without being touched (RFC 7009 §2.2).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      clientIdMetadataDocument: {
        enabled: oauth.clientIdMetadataDocuments,
        ack: 'draft-02',
        // The same address rules as webhooks before the library's own guarded fetch.
        allowFetch: async (_ctx: KoaContextWithOIDC, clientId: string) =>
          checkTargetUrl(deps.config, clientId).then(
            () => true,
            () => false,
          ),
      },
      resourceIndicators: {
        enabled: true,
        // A resource is required: it is how the token knows which MCP endpoint (which agent) it is for.
        defaultResource: async (_ctx, _client, oneOf) => {
          if (oneOf) return oneOf;
          throw new errors.InvalidTarget('resource is required: the URL of the MCP endpoint to connect to');
        },
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          const resource = parseResource(publicUrl, indicator);
          if (!resource)
            throw new errors.InvalidTarget('resource must be the URL of one of this server’s MCP endpoints');
          return {
            scope: scopesOf(resource).join(' '),
            audience: resource.url,
            accessTokenTTL: oauth.accessTokenTtlSeconds,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    ttl: {
      AccessToken: oauth.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      Grant: oauth.grantTtlSeconds,
      Interaction: 15 * 60,
      RefreshToken: oauth.refreshTokenTtlSeconds,
      Session: 24 * 3600,
      IdToken: 3600,
      ClientCredentials: 600,
      DeviceCode: 600,
      BackchannelAuthenticationRequest: 600,
      PreAuthorizedCode: 600,
    },
    interactions: {
      policy: alwaysAskConsent(),
      url: async (_ctx, interaction) => `${OAUTH_MOUNT}/interaction/${interaction.uid}`,
    },
    // Only the grant the person just consented to: an earlier grant never skips the consent page.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: async (_ctx, sub) => {
      const user = await findUserById(deps.db, sub);
      return user ? { accountId: user.id, claims: () => ({ sub: user.id }) } : undefined;
    },
    // MCP clients keep their tokens past the browser session that granted them.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Browser-based clients may call the token endpoint from the origin of one of their redirect URIs.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    renderError: async (ctx, out) => renderOAuthError(ctx, out),
  } as Configuration;

  const provider = new Provider(issuerOf(publicUrl), configuration);
  // The issuer and every endpoint URL come from PUBLIC_URL (see mount.ts), never from a request's Host header.
  provider.proxy = true;
  provider.on('server_error', (_ctx, err) => deps.logger.error({ err }, 'OAuth server error'));
  return provider;
}
