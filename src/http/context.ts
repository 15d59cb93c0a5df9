import type { RouterContext } from '@koa/router';
import type { Logger } from '../platform/logger.js';
import type { Principal } from '../auth/principal.js';
import type { OpenStreams } from './event-stream.js';

declare module 'koa' {
  /** What createApp puts on its app's context, which every request's ctx inherits. */
  interface DefaultContext {
    /** The event streams the app holds open (src/http/event-stream.ts). */
    openStreams: OpenStreams;
  }
}

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** The client's address, as authentication saw it (TRUST_PROXY_HOPS applied). */
  clientIp?: string;
  /** The origin clients reach the API at (PUBLIC_URL): the OAuth issuer and MCP resource URLs derive from it. */
  publicUrl: string;
  /** Hands the request to the OAuth authorization server, as if it had reached `path` under its mount. */
  authorizationServer: (path: string) => Promise<void>;
  /** Route template for metrics and logs, e.g. /v1/agents/:agentId. */
  routePath?: string;
}

export type AppContext = RouterContext<AppState>;
export type Handler = (ctx: AppContext) => unknown;
