import type { z } from 'zod';
import type { agentResponse } from '../../agents/agents.schema.js';
import type { keyResponse, keyWithSecretResponse } from '../../keys/keys.schema.js';
import type { usageResponse } from '../../keys/key-usage.service.js';
import type { grantResponse } from '../../oauth/grants.schema.js';
import type { Page } from '../../platform/pagination.js';
import type {
  portalLinkResponse,
  portalLinkWithTokenResponse,
  portalScopeResponse,
} from '../../webhooks/portal-links.schema.js';
import type {
  attemptResponse,
  deliveryResponse,
  deliveryWithEnvelopeResponse,
} from '../../webhooks/deliveries.schema.js';
import type {
  rotatedSecretResponse,
  webhookResponse,
  webhookStatsResponse,
  webhookWithSecretResponse,
} from '../../webhooks/webhooks.schema.js';

// The API's answers as the pages read them: the types of the very schemas the API's responses are documented by.

/** A subscription as an answer shows it; its kind's own fields (src/delivery/kinds) are read by name. */
export type Webhook = z.infer<typeof webhookResponse> & { [kindField: string]: unknown };
export type WebhookWithSecret = z.infer<typeof webhookWithSecretResponse>;
export type WebhookStats = z.infer<typeof webhookStatsResponse>;
export type RotatedSecret = z.infer<typeof rotatedSecretResponse>;
export type Delivery = z.infer<typeof deliveryResponse>;
export type DeliveryWithEnvelope = z.infer<typeof deliveryWithEnvelopeResponse>;
export type Attempt = z.infer<typeof attemptResponse>;
export type Key = z.infer<typeof keyResponse>;
export type KeyUsage = z.infer<typeof usageResponse>;
export type KeyWithSecret = z.infer<typeof keyWithSecretResponse>;
export type Agent = z.infer<typeof agentResponse>;
export type Grant = z.infer<typeof grantResponse>;
export type PortalLink = z.infer<typeof portalLinkResponse>;
export type PortalLinkWithToken = z.infer<typeof portalLinkWithTokenResponse>;
export type PortalLinkScope = z.infer<typeof portalScopeResponse>;
export type { Page };
