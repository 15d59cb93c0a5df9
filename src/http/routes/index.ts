import type { Deps } from '../../app/deps.js';
import type { ApiRouter } from '../router.js';
import { registerAgentRoutes } from './agents.routes.js';
import { registerContactRoutes } from './contacts.routes.js';
import { registerInboundRoutes } from './inbound.routes.js';
import { registerInboxRoutes } from './inboxes.routes.js';
import { registerMessageRoutes } from './messages.routes.js';
import { registerAuditRoutes } from './audit.routes.js';
import { registerAuthRoutes } from './auth.routes.js';
import { registerBillingRoutes } from './billing.routes.js';
import { registerDomainRoutes } from './domains.routes.js';
import { registerEventTypeRoutes } from './event-types.routes.js';
import { registerFeedRoutes } from './feed.routes.js';
import { registerHealthRoutes } from './health.routes.js';
import { registerIntegrationRoutes } from './integrations.routes.js';
import { registerMcpRoutes } from './mcp.routes.js';
import { registerOAuthRoutes } from './oauth.routes.js';
import { registerOpenApiRoutes } from './openapi.routes.js';
import { registerPortalRoutes } from './portal.routes.js';
import { registerKeyRoutes } from './keys.routes.js';
import { registerStatsRoutes } from './stats.routes.js';
import { registerWebhookRoutes } from './webhooks.routes.js';
import { registerWebhookDevRoutes } from './webhook-dev.routes.js';
import { registerWebhookPollRoutes } from './webhook-poll.routes.js';

/** Every route module of the API, in one list. */
export const routeModules: Array<(api: ApiRouter, deps: Deps) => void> = [
  registerHealthRoutes,
  registerAuthRoutes,
  registerAuditRoutes,
  registerAgentRoutes,
  registerContactRoutes,
  registerInboxRoutes,
  registerInboundRoutes,
  registerMessageRoutes,
  registerIntegrationRoutes,
  registerDomainRoutes,
  registerStatsRoutes,
  registerFeedRoutes,
  registerEventTypeRoutes,
  registerMcpRoutes,
  registerOAuthRoutes,
  registerKeyRoutes,
  registerBillingRoutes,
  registerWebhookDevRoutes,
  registerWebhookRoutes,
  registerWebhookPollRoutes,
  registerPortalRoutes,
  registerOpenApiRoutes,
];
