import type { Context, Middleware } from 'koa';
import type { Deps } from '../../app/deps.js';
import { OAUTH_MOUNT } from '../../oauth/resources.js';
import { clientIp } from '../client-ip.js';
import { readBody } from '../read-body.js';
import type { AppState } from '../context.js';
import type { createInteractionHandlers } from './interactions.js';

// Mounts the authorization server at /oauth (the issuer is PUBLIC_URL/oauth) in front of the JSON API: its
// endpoints read their own bodies (form posts, the registration JSON), so they run before the JSON body parser.
// Its metadata, at the path-suffixed well-known URLs of that issuer (RFC 8414), are routes of the API router
// (src/http/routes/oauth.routes.ts) that hand the request over through `ctx.state.authorizationServer`.

const INTERACTION = new RegExp(`^${OAUTH_MOUNT}/interaction/([A-Za-z0-9_-]{1,64})(?:/(login|confirm))?$`);
// A header name no proxy sets: the provider's idea of the client IP is the one TRUST_PROXY_HOPS decided.
const CLIENT_IP_HEADER = 'x-switchboard-oauth-client-ip';

interface Loaded {
  callback: (req: Context['req'], res: Context['res']) => Promise<void>;
  interaction: ReturnType<typeof createInteractionHandlers>;
}

/** The provider and its pages, built on the first OAuth request: the library is not loaded by API-only uses. */
async function load(deps: Deps, publicUrl: string): Promise<Loaded> {
  const [{ createOAuthProvider }, { createInteractionHandlers }] = await Promise.all([
    import('./provider.js'),
    import('./interactions.js'),
  ]);
  const provider = createOAuthProvider(deps, publicUrl);
  provider.proxyIpHeader = CLIENT_IP_HEADER;
  return {
    callback: provider.callback() as Loaded['callback'],
    interaction: createInteractionHandlers(deps, provider, publicUrl),
  };
}

export function oauthServer(deps: Deps, publicUrl: string): Middleware<AppState> {
  const external = new URL(publicUrl);
  let loading: Promise<Loaded> | null = null;
  const loaded = () =>
    (loading ??= load(deps, publicUrl).catch((err: unknown) => ((loading = null), Promise.reject(err))));

  /** Hands the raw request to the provider, as if it had reached PUBLIC_URL at `path` under the mount. */
  async function delegate(ctx: Context, path: string) {
    const { callback } = await loaded();
    ctx.respond = false;
    const req = ctx.req as typeof ctx.req & { originalUrl?: string };
    const query = ctx.querystring ? `?${ctx.querystring}` : '';
    req.originalUrl = `${OAUTH_MOUNT}${path}${query}`; // the library derives its mount path from this
    req.url = `${path}${query}`;
    req.headers['x-forwarded-proto'] = external.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = external.host;
    req.headers[CLIENT_IP_HEADER] = clientIp(ctx, deps.config.trustProxyHops);
    await callback(req, ctx.res);
    // The provider stops reading a body past its own limit and leaves the rest in the socket, where it would hold
    // the connection: it is drained like any refused body (src/http/read-body.ts), or the connection is ended.
    if (!req.complete && !(await readBody(req, 0)).complete) req.socket.end();
  }

  return async (ctx, next) => {
    ctx.state.publicUrl = publicUrl;
    ctx.state.authorizationServer = (path) => delegate(ctx, path);
    const path = ctx.path;
    if (path !== OAUTH_MOUNT && !path.startsWith(`${OAUTH_MOUNT}/`)) return next();

    const match = INTERACTION.exec(path);
    if (match) {
      ctx.state.routePath = `${OAUTH_MOUNT}/interaction/:uid${match[2] ? `/${match[2]}` : ''}`;
      const step = (match[2] ?? 'show') as 'show' | 'login' | 'confirm';
      if ((step === 'show') !== (ctx.method === 'GET')) {
        ctx.status = 405;
        ctx.set('Allow', step === 'show' ? 'GET' : 'POST');
        ctx.body = 'Method Not Allowed';
        return;
      }
      const { interaction } = await loaded();
      return interaction(ctx, match[1]!, step);
    }
    ctx.state.routePath = `${OAUTH_MOUNT}/*`;
    return delegate(ctx, path.slice(OAUTH_MOUNT.length) || '/');
  };
}
