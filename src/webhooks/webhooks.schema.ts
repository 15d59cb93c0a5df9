import { z } from 'zod';
import { pageQuery } from '../platform/pagination.js';
import { EVENT_NAMES } from '../events/event-types.js';
import { text } from '../platform/input.js';
import { STATS_WINDOWS, type StatsWindow } from './endpoint-stats.js';

const eventName = text().refine((v) => (EVENT_NAMES as string[]).includes(v), {
  message: `unknown event; one of ${EVENT_NAMES.join(', ')}`,
});

const events = z
  .array(eventName)
  .min(1, 'at least one event')
  .max(EVENT_NAMES.length)
  .transform((list) => [...new Set(list)]);

// 16–128 printable ASCII characters, chosen by the client (contract §7).
const legacySecret = text().regex(/^[\x20-\x7e]{16,128}$/, '16 to 128 printable characters');

const url = text().min(1).max(2048);
const description = text().max(500);
// Deliveries per second to this subscription, across every worker process; null (or absent) is unthrottled.
const rateLimitPerSecond = z.number().int().min(1).max(1000).nullable();

export const createWebhookInput = z
  .object({ url, events, description: description.optional(), legacySecret: legacySecret.optional(), rateLimitPerSecond: rateLimitPerSecond.optional() })
  .strict();

export const updateWebhookInput = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: description.nullable().optional(),
    legacySecret: legacySecret.nullable().optional(),
    rateLimitPerSecond: rateLimitPerSecond.optional(),
  })
  .strict();

/** `?deliveryId=` narrows the attempts list to one delivery. */
export const attemptsQuery = pageQuery.extend({ deliveryId: text().uuid().optional() });

export const enableWebhookInput = z.object({ recoverSince: z.iso.datetime({ offset: true }).optional() }).strict();

/** GET /v1/webhooks/:id/stats?window=1h|24h|7d (default 24h). */
export const statsQuery = z
  .object({ window: z.enum(Object.keys(STATS_WINDOWS) as [StatsWindow, ...StatsWindow[]]).default('24h') })
  .strict();

export type CreateWebhookInput = z.infer<typeof createWebhookInput>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;
