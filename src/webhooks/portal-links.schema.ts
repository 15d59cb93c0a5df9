import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { idString, outText, timestamp } from '../platform/output.js';
import type { PortalLinkRow } from './portal-links.repository.js';
import { eventList, tenant, updateWebhookInput, createWebhookFields } from './webhooks.schema.js';

// Portal links (docs/adr/0063-portal-links.md): what an account sends to create one, and what the portal's
// holder may send. The portal's inputs are the subscription API's own schemas, narrowed to what a customer may set.

export const PORTAL_LINK_MAX_SECONDS = 30 * 24 * 3600;

export const createPortalLinkInput = z
  .object({
    tenant,
    events: eventList.optional().describe('The event types the portal may subscribe to; omitted: any'),
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(PORTAL_LINK_MAX_SECONDS)
      .default(24 * 3600),
  })
  .strict();
export type CreatePortalLinkInput = z.infer<typeof createPortalLinkInput>;

/**
 * A customer creates a subscription: a URL, events and how it is signed (the customer runs the receiver); the
 * tenant is the link's, never theirs to choose.
 */
export const portalCreateWebhookInput = createWebhookFields
  .pick({ url: true, events: true, description: true, signatureScheme: true })
  .required({ url: true });
/** A customer edits a subscription's URL, events, description or signature scheme. */
export const portalUpdateWebhookInput = updateWebhookInput.pick({
  url: true,
  events: true,
  description: true,
  signatureScheme: true,
});

export const toPortalLinkResponse = (l: PortalLinkRow) => ({
  id: l.id,
  tenant: l.tenant,
  events: l.events,
  expiresAt: iso(l.expires_at),
  revokedAt: iso(l.revoked_at),
  createdAt: iso(l.created_at),
});

export const portalLinkResponse = z
  .object({
    id: idString('plk'),
    tenant: outText(),
    events: z.array(outText()).nullable(),
    expiresAt: timestamp(),
    revokedAt: timestamp().nullable(),
    createdAt: timestamp(),
  })
  .meta({ id: 'PortalLink' });

/** What a portal's holder may learn about its own link: its tenant, the events it offers, when it ends. */
export const portalScopeResponse = z
  .object({ tenant: outText(), events: z.array(outText()).nullable(), expiresAt: timestamp() })
  .meta({ id: 'PortalScope' });

export const portalLinkWithTokenResponse = portalLinkResponse
  .extend({
    token: outText().nullable().describe('ca_portal_…, shown this once (null in an idempotent replay)'),
    url: outText().nullable().describe('The page to hand to the customer: /portal/<token>, shown this once'),
  })
  .meta({ id: 'PortalLinkWithToken' });
