import { z } from 'zod';
import { pageQuery } from '../platform/pagination.js';
import { EVENT_NAMES } from '../events/event-types.js';
import { eventName as eventNameInput } from '../events/event-name.js';
import { text, timestampInput } from '../platform/input.js';
import { idString, outText, timestamp, uuidString } from '../platform/output.js';
import { STATS_WINDOWS, type StatsWindow } from './endpoint-stats.js';
import { SIGNATURE_SCHEMES } from '../delivery/sign.js';
import { filterInput, filterResponse } from './filter.schema.js';
import {
  CREATED_KIND_NAMES,
  CREATED_KINDS,
  KIND_FIELDS,
  KIND_NAMES,
  KINDS,
  kindNamed,
  isKind,
} from '../delivery/kinds/registry.js';

// A typo gets a 400 validation_error naming the likely name; the document shows the registry's names as an enum
// (components.schemas.EventName), so a typo fails type-checking in a generated client too.
const eventName = eventNameInput();

export const eventList = z
  .array(eventName)
  .min(1, 'at least one event')
  .max(EVENT_NAMES.length)
  .transform((list) => [...new Set(list)]);

// 16–128 printable ASCII characters, chosen by the client (docs/adr/0018-webhook-signatures.md).
const legacySecret = text().regex(/^[\x20-\x7e]{16,128}$/, '16 to 128 printable characters');

const url = text().min(1).max(2048);
const description = text().max(500);
// Which of the account's own customers the endpoint belongs to; a portal link is scoped to one (portal-links.ts).
export const tenant = text().regex(/^[A-Za-z0-9._:-]{1,100}$/, '1 to 100 letters, digits, ".", "_", ":" or "-"');
// Deliveries per second to this subscription, across every worker process; null (or absent) is unthrottled.
const rateLimitPerSecond = z.number().int().min(1).max(1000).nullable();
// key: one delivery at a time per ordering key, in commit order (docs/webhook-retries.md#ordered-delivery).
const ordering = z
  .enum(['none', 'key'])
  .describe(
    'key: the deliveries of one ordering key (each event type names its key, GET /v1/event-types `orderingKey`) are sent one at a time, in commit order; none (the default): in parallel',
  );

// How deliveries are signed (docs/webhook-signatures.md#signature-schemes): the service makes the key; none is
// imported.
export const signatureScheme = z
  .enum(SIGNATURE_SCHEMES)
  .describe(
    'hmac-sha256 (the default): a shared whsec_ secret signs X-Switchboard-Signature and webhook-signature `v1,`; ed25519: a key pair whose public half (`publicKey`, whpk_) verifies webhook-signature `v1a,`, so the receiver holds nothing that can sign',
  );

// Destination kinds a client creates here (a stream is opened by `switchboard listen`, never POSTed), each declared
// by its module (src/delivery/kinds): the fields it takes beyond `url` (docs/webhooks.md#destination-kinds) and
// its URL's rules. The refinement refuses a missing field, one of another kind, and a URL of the wrong scheme,
// each as a 400 naming the field.
const createdKind = z
  .enum(CREATED_KIND_NAMES)
  .describe(CREATED_KINDS.map((k, i) => `${k.name}${i === 0 ? ' (the default)' : ''}: ${k.description}`).join('; '));

/** Every kind's own fields, each optional (which kind takes which is the refinement's to say). */
const kindFieldInputs: Record<string, z.ZodOptional<z.ZodType>> = Object.fromEntries(
  KIND_FIELDS.map((f) => [f.name, f.input.optional()]),
);

/**
 * A subscription's destination fields against its kind: what it lacks (`required`, at creation), what belongs to
 * another kind, and a URL its kind refuses.
 */
export function refineDestination(
  kindName: string,
  v: Record<string, unknown>,
  ctx: z.RefinementCtx,
  required: boolean,
) {
  if (!isKind(kindName)) return;
  const kind = kindNamed(kindName);
  for (const { name } of KIND_FIELDS) {
    const given = v[name] !== undefined;
    const own = kind.fields.some((f) => f.name === name);
    if (given && !own) ctx.addIssue({ code: 'custom', path: [name], message: `not a field of kind ${kind.name}` });
    if (!given && required && own)
      ctx.addIssue({ code: 'custom', path: [name], message: `required for kind ${kind.name}` });
  }
  if (typeof kind.url === 'object' && typeof v.url === 'string') {
    const problem = kind.url.problem(v.url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
  }
}

/** The fields of a new subscription, before its kind's rules (the portal picks from these). */
export const createWebhookFields = z
  .object({
    kind: createdKind.optional(),
    url: url.optional().describe('Required for every kind but poll, which has none'),
    ...kindFieldInputs,
    events: eventList,
    description: description.optional(),
    legacySecret: legacySecret.optional(),
    rateLimitPerSecond: rateLimitPerSecond.optional(),
    tenant: tenant.optional(),
    ordering: ordering.optional(),
    signatureScheme: signatureScheme.optional(),
    filter: filterInput.optional(),
  })
  .strict();

export const createWebhookInput = createWebhookFields.superRefine((v, ctx) => {
  refineDestination(v.kind ?? 'http', v, ctx, true);
  refinePollFields(v, ctx);
});

/**
 * A poll subscription's fields (docs/adr/0089-poll-destinations.md): no URL (nothing is sent), no throttle and no
 * ordering key (its log is read in order, at its consumer's pace). Any other kind needs its URL.
 */
function refinePollFields(
  input: { kind?: string; url?: string; rateLimitPerSecond?: number | null; ordering?: string },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  const kind = kindNamed(input.kind ?? 'http');
  if (kind.url !== 'none') {
    if (input.url === undefined) issue('url', 'required (a poll subscription, kind "poll", has none)');
  } else if (input.url !== undefined) issue('url', 'a poll subscription has no URL: its consumer polls');
  if (!kind.pulled) return;
  if (input.rateLimitPerSecond != null) issue('rateLimitPerSecond', 'a poll subscription is read at its own pace');
  if (input.ordering === 'key') issue('ordering', 'a poll subscription is read in order already');
}

/** The kind is the subscription's for life; its own fields may change (checked against it by the service). */
export const updateWebhookInput = z
  .object({
    url: url.optional(),
    ...kindFieldInputs,
    events: eventList.optional(),
    description: description.nullable().optional(),
    legacySecret: legacySecret.nullable().optional(),
    rateLimitPerSecond: rateLimitPerSecond.optional(),
    tenant: tenant.nullable().optional(),
    ordering: ordering.optional(),
    signatureScheme: signatureScheme.optional(),
    filter: filterInput.nullable().optional(),
  })
  .strict();

/** POST /v1/webhooks/:webhookId/rotate-secret: optionally, the scheme the caller expects the new key to be of. */
export const rotateSecretInput = z
  .object({
    signatureScheme: signatureScheme
      .optional()
      .describe("The subscription's own scheme (a check: another one is refused; PATCH changes the scheme)"),
  })
  .strict();

/** `?deliveryId=` narrows the attempts list to one delivery. */
export const attemptsQuery = pageQuery.extend({ deliveryId: text().uuid().optional() });

/** `?status=` and `?event=` narrow the deliveries list (the dashboard's filters). */
export const deliveriesQuery = pageQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed', 'exhausted']).optional(),
  event: text().max(100).optional(),
});

/** POST /v1/webhooks/:webhookId/test: nothing to choose, the event is always webhook.test. */
export const testWebhookInput = z.object({}).strict();

export const enableWebhookInput = z.object({ recoverSince: timestampInput().optional() }).strict();

/** GET /v1/webhooks/:webhookId/stats?window=1h|24h|7d (default 24h). */
export const statsQuery = z
  .object({ window: z.enum(Object.keys(STATS_WINDOWS) as [StatsWindow, ...StatsWindow[]]).default('24h') })
  .strict();

export type CreateWebhookInput = z.infer<typeof createWebhookInput>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;
export type RotateSecretInput = z.infer<typeof rotateSecretInput>;
export type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

/** Every kind's fields in an answer: the subscription's own, the others null. */
const kindFieldOutputs: Record<string, z.ZodNullable<z.ZodType>> = Object.fromEntries(
  KIND_FIELDS.map((f) => [f.name, f.output.nullable()]),
);

export const webhookResponse = z
  .object({
    id: idString('wh'),
    kind: z
      .enum(KIND_NAMES)
      .describe(`${KINDS.map((k) => `${k.name}: ${k.description}`).join('; ')} (docs/webhooks.md#destination-kinds)`),
    url: outText().describe('A broker URL is shown without its password (and without a token)'),
    ...kindFieldOutputs,
    events: z.array(outText()),
    description: outText().nullable(),
    status: z.enum(['active', 'disabled']),
    hasLegacySecret: z
      .boolean()
      .describe('Whether deliveries carry X-Switchboard-Signature-Legacy; the secret itself is never returned'),
    consecutiveFailures: z.number().int(),
    rateLimitPerSecond: z.number().int().nullable(),
    tenant: outText().nullable().describe('The label a portal link is scoped by (POST /v1/portal-links)'),
    ordering,
    signatureScheme,
    publicKey: outText()
      .nullable()
      .describe(
        'ed25519: whpk_ + base64 of the 32-byte public key that verifies webhook-signature `v1a,` (public, shown on every read); null for hmac-sha256',
      ),
    previousPublicKey: outText()
      .nullable()
      .describe(
        'The whpk_ of the key that still signs beside the current one until previousSecretExpiresAt (after a rotation or a change of scheme); null when that key is not ed25519 or its overlap is over',
      ),
    filter: filterResponse,
    disabledAt: timestamp().nullable(),
    disabledReason: outText().nullable(),
    previousSecretExpiresAt: timestamp().nullable(),
    mcp: z
      .object({
        subscriptionId: outText().describe('The id events/subscribe answered (X-MCP-Subscription-Id)'),
        principal: outText().describe('Who subscribed: key:<API key id> or grant:<OAuth grant id>'),
        arguments: z.record(outText(), outText()).describe('The arguments it was subscribed with'),
        expiresAt: timestamp()
          .nullable()
          .describe('The granted TTL (refreshBefore): no deliveries after it unless refreshed; null: no expiry'),
      })
      .nullable()
      .describe('An MCP Events webhook subscription (docs/mcp-events.md#webhook-mode); null for every other'),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .meta({ id: 'Webhook' });

const secret = outText()
  .nullable()
  .describe('whsec_ followed by the base64 of 32 random bytes, shown this once; null for an ed25519 subscription');

export const webhookWithSecretResponse = webhookResponse
  .extend({
    secret: secret.describe(
      'whsec_…, shown this once (null for an ed25519 subscription, which has `publicKey` instead, and in the replay of an answer to a repeated Idempotency-Key: a secret is never stored)',
    ),
    pollCredential: outText()
      .nullable()
      .optional()
      .describe(
        'kind poll only: whpoll_…, the credential that polls this subscription and nothing else, shown this once (null in an Idempotency-Key replay)',
      ),
  })
  .meta({ id: 'WebhookWithSecret' });

export const webhookChangedResponse = webhookResponse
  .extend({
    secret: secret.describe(
      'The new whsec_ when this change made one (signatureScheme changed to hmac-sha256), shown this once; null otherwise',
    ),
  })
  .meta({ id: 'WebhookChanged' });

export const webhookEnabledResponse = webhookResponse
  .extend({ recovered: z.number().int().describe('Failed deliveries re-queued because of recoverSince') })
  .meta({ id: 'WebhookEnabled' });

export const rotatedSecretResponse = z
  .object({
    id: idString('wh'),
    secret,
    signatureScheme,
    publicKey: outText().nullable().describe('ed25519: the new whpk_ public key; null for hmac-sha256'),
    previousSecretExpiresAt: timestamp().describe('Deliveries are signed with both keys until then'),
  })
  .meta({ id: 'WebhookSecretRotated' });

export const redeliveryResponse = z
  .object({ deliveryId: uuidString(), status: z.literal('pending') })
  .meta({ id: 'Redelivery' });

export const testDeliveryResponse = z
  .object({
    deliveryId: uuidString(),
    eventId: idString('evt'),
    event: z.literal('webhook.test'),
    status: z.literal('pending'),
  })
  .meta({ id: 'TestDelivery' });

const counts = z.record(outText(), z.number().int());

export const webhookStatsResponse = z
  .object({
    webhookId: idString('wh'),
    window: z.enum(['1h', '24h', '7d']),
    from: timestamp(),
    to: timestamp(),
    attempts: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    successRate: z.number().nullable().describe('0..1; null without attempts'),
    durationMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
    byError: counts,
    byStatusClass: counts,
    lastSuccessAt: timestamp().nullable(),
    lastFailureAt: timestamp().nullable(),
    buckets: z
      .array(z.object({ start: timestamp(), attempts: z.number().int(), succeeded: z.number().int() }))
      .describe('The 5-minute buckets of the window that saw attempts, oldest first'),
    consecutiveFailures: z.object({
      attempts: z.number().int(),
      deliveries: z.number().int(),
      disableAfter: z.number().int(),
    }),
  })
  .meta({ id: 'WebhookStats' });
