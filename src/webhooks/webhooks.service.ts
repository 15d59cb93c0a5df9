import type { z } from 'zod';
import type { Caller } from '../auth/principal.js';
import { recordAudit } from '../audit/audit.repository.js';
import { orderingKeyPath, TEST_EVENT, type EventType } from '../events/event-types.js';
import { iso, now } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import { transaction, type Trx } from '../platform/transaction.js';
import { AppError, notFound } from '../platform/errors.js';
import { checkTargetUrl } from '../platform/http-client.js';
import { newId } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { retainedSince } from '../maintenance/retention.js';
import {
  findDelivery,
  findDeliveryWithEvent,
  hastenDelivery,
  listAttempts,
  listDeliveries,
  reopenDelivery,
  reopenFailedDeliveries,
} from './deliveries.repository.js';
import { insertEventWithDeliveries } from '../delivery/sql/fan-out.js';
import { disableWebhookOnce } from '../delivery/sql/subscriptions.js';
import { toAttemptResponse, toDeliveryResponse, toDeliveryWithEnvelopeResponse } from './deliveries.schema.js';
import { scheduleDeliveries, scheduleCommitted } from '../delivery/schedule.js';
import { generateWebhookSecret } from '../delivery/sign.js';
import { rejoinOrderingKeys } from '../delivery/ordering.js';
import { releaseOrderingKeys } from '../delivery/sql/ordering-keys.js';
import type { attemptsQuery, CreateWebhookInput, DeliveriesQuery, UpdateWebhookInput } from './webhooks.schema.js';
import {
  activateWebhook,
  findWebhook,
  findWebhookWithHistory,
  insertWebhook,
  listWebhooks,
  rotateWebhookSecret as rotateSecretOf,
  softDeleteWebhook,
  toWebhookResponse,
  updateWebhook,
  type WebhookRow,
} from './webhooks.repository.js';

type AttemptsQuery = z.infer<typeof attemptsQuery>;

export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/** The audit row of a change, written in the change's transaction: a change never commits without its record. */
const audit = (trx: Trx, caller: Caller, action: string, id: string, details?: Record<string, unknown>) =>
  recordAudit(trx, caller.principal, { action, targetType: 'webhook', targetId: id, ip: caller.ip, details });

async function requireWebhook(deps: Deps, accountId: string, id: string): Promise<WebhookRow> {
  const row = await findWebhook(deps.db, accountId, id);
  if (!row) throw notFound('Webhook');
  return row;
}

/** As requireWebhook, for reading its deliveries and attempts: an ended stream's stay readable. */
async function requireWebhookHistory(deps: Deps, accountId: string, id: string): Promise<void> {
  if (!(await findWebhookWithHistory(deps.db, accountId, id))) throw notFound('Webhook');
}

/**
 * An ordered subscription may name only event types that have an ordering key: a 400 in the contract's shape
 * names the first that has none.
 */
function requireOrderingKeys(ordering: WebhookRow['ordering'], events: string[]): void {
  const unkeyed = ordering === 'key' ? events.filter((e) => orderingKeyPath(e) === null) : [];
  if (unkeyed.length === 0) return;
  const message = `ordering "key" needs an ordering key for every event; ${unkeyed.join(', ')} has none (GET /v1/event-types)`;
  throw new AppError('validation_error', `Invalid request: ordering: ${message}`, {
    fields: [{ field: 'ordering', message }],
  });
}

export async function createWebhook(deps: Deps, caller: Caller, input: CreateWebhookInput) {
  requireOrderingKeys(input.ordering ?? 'none', input.events);
  await checkTargetUrl(deps.config, input.url);
  const sealer = deps.sealers.webhook;
  const secret = generateWebhookSecret();
  const row = await transaction(deps.db, async (trx) => {
    const inserted = await insertWebhook(trx, caller.principal.accountId, {
      id: newId('wh'),
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secret_sealed: sealer.seal(secret),
      legacy_secret_sealed: input.legacySecret ? sealer.seal(input.legacySecret) : null,
      rate_limit_per_second: input.rateLimitPerSecond ?? null,
      tenant: input.tenant ?? null,
      ordering: input.ordering ?? 'none',
    });
    await audit(trx, caller, 'webhook.created', inserted.id, { url: inserted.url, events: inserted.events });
    return inserted;
  });
  return { ...toWebhookResponse(row), secret };
}

/** The account's subscriptions as the API shows them (never a secret). REST and MCP both list through here. */
export async function listWebhookSubscriptions(deps: Deps, accountId: string, page: PageQuery, tenant?: string) {
  return mapPage(await listWebhooks(deps.db, accountId, page, tenant), toWebhookResponse);
}

/** Recorded attempts of one subscription, optionally of one delivery. */
export async function listWebhookAttempts(deps: Deps, accountId: string, id: string, query: AttemptsQuery) {
  await requireWebhookHistory(deps, accountId, id);
  const { deliveryId, ...page } = query;
  return mapPage(
    await listAttempts(deps.db, accountId, id, page, retainedSince(deps.config), deliveryId),
    toAttemptResponse,
  );
}

export async function listWebhookDeliveries(deps: Deps, accountId: string, id: string, query: DeliveriesQuery) {
  await requireWebhookHistory(deps, accountId, id);
  const { status, event, ...page } = query;
  return mapPage(
    await listDeliveries(deps.db, accountId, id, page, retainedSince(deps.config), { status, event }),
    toDeliveryResponse,
  );
}

/** One delivery with the envelope its attempts send; an id not of this subscription (or not a uuid) is not found. */
export async function getWebhookDelivery(deps: Deps, accountId: string, id: string, deliveryId: string) {
  await requireWebhookHistory(deps, accountId, id);
  const row = isDeliveryId(deliveryId)
    ? await findDeliveryWithEvent(deps.db, accountId, id, deliveryId, retainedSince(deps.config))
    : undefined;
  if (!row) throw notFound('Delivery');
  return toDeliveryWithEnvelopeResponse(row);
}

export async function getWebhook(deps: Deps, accountId: string, id: string) {
  return toWebhookResponse(await requireWebhook(deps, accountId, id));
}

/** A stream's URL and secret belong to its listen session (docs/adr/0054-stream-destinations.md). */
function requireHttpKind(row: WebhookRow): void {
  if (row.kind === 'stream')
    throw new AppError(
      'conflict',
      'A stream destination is changed by its listen session only; end it and listen again',
    );
}

export async function changeWebhook(deps: Deps, caller: Caller, id: string, input: UpdateWebhookInput) {
  const accountId = caller.principal.accountId;
  const current = await requireWebhook(deps, accountId, id);
  requireHttpKind(current);
  requireOrderingKeys(input.ordering ?? current.ordering, input.events ?? current.events);
  if (input.url !== undefined) await checkTargetUrl(deps.config, input.url);
  const patch: Partial<WebhookRow> = {};
  if (input.url !== undefined) patch.url = input.url;
  if (input.events !== undefined) patch.events = input.events;
  if (input.description !== undefined) patch.description = input.description;
  if (input.rateLimitPerSecond !== undefined) patch.rate_limit_per_second = input.rateLimitPerSecond;
  if (input.tenant !== undefined) patch.tenant = input.tenant;
  if (input.ordering !== undefined) patch.ordering = input.ordering;
  if (input.legacySecret !== undefined)
    patch.legacy_secret_sealed = input.legacySecret === null ? null : deps.sealers.webhook.seal(input.legacySecret);
  const { row, released } = await transaction(deps.db, async (trx) => {
    const updated = Object.keys(patch).length
      ? await updateWebhook(trx, accountId, id, patch)
      : await findWebhook(trx, accountId, id);
    if (!updated) throw notFound('Webhook');
    // Made unordered: what waited in its keys goes now, in parallel.
    const freed = input.ordering === 'none' && current.ordering === 'key' ? await releaseOrderingKeys(trx, id) : [];
    await audit(trx, caller, 'webhook.updated', id, { fields: Object.keys(input) });
    return { row: updated, released: freed };
  });
  await scheduleDeliveries(deps, released);
  return toWebhookResponse(row);
}

export async function deleteWebhook(deps: Deps, caller: Caller, id: string): Promise<void> {
  await transaction(deps.db, async (trx) => {
    if (!(await softDeleteWebhook(trx, caller.principal.accountId, id))) throw notFound('Webhook');
    await audit(trx, caller, 'webhook.deleted', id);
  });
}

/** A new secret; the old one keeps signing (as a second v1) for 24 hours. */
export async function rotateWebhookSecret(deps: Deps, caller: Caller, id: string) {
  requireHttpKind(await requireWebhook(deps, caller.principal.accountId, id));
  const secret = generateWebhookSecret();
  const previousSecretExpiresAt = new Date(now().getTime() + PREVIOUS_SECRET_OVERLAP_MS);
  await transaction(deps.db, async (trx) => {
    const sealed = deps.sealers.webhook.seal(secret);
    if (!(await rotateSecretOf(trx, caller.principal.accountId, id, sealed, previousSecretExpiresAt)))
      throw notFound('Webhook');
    await audit(trx, caller, 'webhook.secret_rotated', id);
  });
  return { id, secret, previousSecretExpiresAt: iso(previousSecretExpiresAt) };
}

/** The reason a subscription disabled by hand shows (GET /v1/webhooks/:id `disabledReason`). */
export const DISABLED_BY_HAND = 'Disabled by the account';

/**
 * Disabled by hand (the dashboard's Disable): no delivery is attempted until it is enabled again; deliveries still
 * pending stop at their next attempt, as after an automatic disable, and `recoverSince` can send them later. No
 * notification and no webhook.disabled event: the account did it itself. Disabling a disabled one changes nothing.
 */
export async function disableWebhook(deps: Deps, caller: Caller, id: string) {
  const accountId = caller.principal.accountId;
  const row = await transaction(deps.db, async (trx) => {
    const disabled = await disableWebhookOnce<WebhookRow>(trx, accountId, id, DISABLED_BY_HAND);
    if (disabled) await audit(trx, caller, 'webhook.disabled', id, {});
    return disabled ?? (await findWebhook(trx, accountId, id));
  });
  if (!row) throw notFound('Webhook');
  return toWebhookResponse(row);
}

/**
 * Active again with a zero count; with recoverSince, the deliveries that failed since then are reopened (due now,
 * a fresh round of retries) in the same transaction, and their jobs added after commit.
 */
export async function enableWebhook(deps: Deps, caller: Caller, id: string, recoverSince?: string) {
  const accountId = caller.principal.accountId;
  const { row, reopened, armed } = await transaction(deps.db, async (trx) => {
    const activated = await activateWebhook(trx, accountId, id);
    if (!activated) throw notFound('Webhook');
    if (!recoverSince) {
      await audit(trx, caller, 'webhook.enabled', id, {});
      return { row: activated, reopened: [], armed: [] };
    }
    // Nothing past retention comes back.
    const since = new Date(Math.max(Date.parse(recoverSince), retainedSince(deps.config).getTime()));
    const recovered = await reopenFailedDeliveries(trx, accountId, id, since);
    await audit(trx, caller, 'webhook.enabled', id, { recoverSince, recovered: recovered.length });
    return { row: activated, reopened: recovered, armed: await rejoinOrderingKeys(trx, recovered) };
  });
  await scheduleDeliveries(deps, armed);
  return { ...toWebhookResponse(row), recovered: reopened.length };
}

/** A delivery id is a uuid: anything else names no delivery (and would be an error to Postgres). */
const isDeliveryId = (id: string) => /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(id);

function requireActive(row: WebhookRow): void {
  if (row.status !== 'active')
    throw new AppError('conflict', 'The webhook is disabled; enable it first (POST /v1/webhooks/:id/enable)');
}

/**
 * Another round of attempts for one delivery, with the same envelope id. A final delivery is reopened; one still
 * waiting for a retry is made due now under a new job, so the waiting retry does nothing and it goes out once.
 */
export async function redeliver(deps: Deps, caller: Caller, id: string, deliveryId: string) {
  const accountId = caller.principal.accountId;
  requireActive(await requireWebhook(deps, accountId, id));
  const delivery = isDeliveryId(deliveryId)
    ? await findDelivery(deps.db, accountId, id, deliveryId, retainedSince(deps.config))
    : undefined;
  if (!delivery) throw notFound('Delivery');
  const armed = await transaction(deps.db, async (trx) => {
    const reopened = await reopenDelivery(trx, accountId, delivery);
    // Reopened into its key's queue when ordered: armed when its turn comes, maybe now.
    const hastened = reopened ? undefined : await hastenDelivery(trx, accountId, delivery);
    await audit(trx, caller, 'webhook.redelivered', id, { deliveryId });
    return reopened ? await rejoinOrderingKeys(trx, [reopened]) : hastened ? [hastened] : [];
  });
  await scheduleDeliveries(deps, armed);
  return { deliveryId, status: 'pending' as const };
}

/** A `webhook.test` event delivered to this subscription alone. */
export async function sendTestEvent(deps: Deps, caller: Caller, id: string) {
  const accountId = caller.principal.accountId;
  const webhook = await requireWebhook(deps, accountId, id);
  requireActive(webhook);
  const payload = { webhookId: id, message: 'This is a test delivery from Switchboard.' };
  // Not a subscribable event: written for the envelope and history, with a delivery to this subscription only.
  const fannedOut = await transaction(deps.db, async (trx) => {
    const f = await insertEventWithDeliveries(trx, accountId, { type: TEST_EVENT as EventType, payload }, id);
    // Disabled or deleted between the check above and this statement: nothing to send, so nothing is written.
    if (f.deliveryIds.length === 0)
      throw new AppError('conflict', 'The webhook was disabled or deleted while the test was being sent');
    return f;
  });
  await scheduleCommitted(deps, [fannedOut]);
  const {
    eventId,
    deliveryIds: [deliveryId],
  } = fannedOut;
  return { deliveryId, eventId, event: TEST_EVENT, status: 'pending' as const };
}
