import type { z } from 'zod';
import type { Caller } from '../auth/principal.js';
import { recordAudit } from '../audit/audit.repository.js';
import { orderingKeyPath, TEST_EVENT, type EventType } from '../events/event-types.js';
import { iso } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import { transaction, type Trx } from '../platform/transaction.js';
import { AppError, fieldError, notFound } from '../platform/errors.js';
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
import { newSigningKey, replaceKeyOrConflict, requireNoLegacySecret } from './signing-keys.js';
import { isPulledKind } from '../delivery/kinds/registry.js';
import { generatePollCredential } from './poll-credential.js';
import { destinationOf, destinationPatch } from './destinations.js';
import { rejoinOrderingKeys } from '../delivery/ordering.js';
import { releaseOrderingKeys } from '../delivery/sql/ordering-keys.js';
import type {
  attemptsQuery,
  CreateWebhookInput,
  DeliveriesQuery,
  RotateSecretInput,
  UpdateWebhookInput,
} from './webhooks.schema.js';
import { requireFilterFits } from './filter-validation.js';
import {
  activateWebhook,
  findWebhook,
  findWebhookWithHistory,
  insertWebhook,
  listWebhooks,
  softDeleteWebhook,
  toWebhookResponse,
  updateWebhook,
  type WebhookRow,
} from './webhooks.repository.js';

type AttemptsQuery = z.infer<typeof attemptsQuery>;

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
  throw fieldError('ordering', message);
}

export async function createWebhook(deps: Deps, caller: Caller, input: CreateWebhookInput) {
  const scheme = input.signatureScheme ?? 'hmac-sha256';
  requireOrderingKeys(input.ordering ?? 'none', input.events);
  requireFilterFits(input.filter ?? null, input.events);
  requireNoLegacySecret(scheme, Boolean(input.legacySecret));
  const id = newId('wh');
  const poll = input.kind === 'poll' ? generatePollCredential() : null;
  const destination = await destinationOf(deps, input, id);
  const sealer = deps.sealers.webhook;
  const key = newSigningKey(sealer, scheme);
  const row = await transaction(deps.db, async (trx) => {
    const inserted = await insertWebhook(trx, caller.principal.accountId, {
      id,
      ...destination,
      ...(poll ? { poll_credential_hash: poll.hash } : {}),
      events: input.events,
      description: input.description ?? null,
      signature_scheme: scheme,
      secret_sealed: key.secretSealed,
      public_key: key.publicKey,
      legacy_secret_sealed: input.legacySecret ? sealer.seal(input.legacySecret) : null,
      rate_limit_per_second: input.rateLimitPerSecond ?? null,
      tenant: input.tenant ?? null,
      ordering: input.ordering ?? 'none',
      filter: input.filter ?? null,
    });
    await audit(trx, caller, 'webhook.created', inserted.id, { url: inserted.url, events: inserted.events });
    return inserted;
  });
  return {
    ...toWebhookResponse(row),
    secret: key.sharedSecret,
    ...(poll ? { pollCredential: poll.credential } : {}),
  };
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
function refuseStream(row: WebhookRow): void {
  if (row.kind === 'stream')
    throw new AppError(
      'conflict',
      'A stream destination is changed by its listen session only; end it and listen again',
    );
}

/** What a poll subscription cannot be given (docs/adr/0089-poll-destinations.md): a 400 naming the field. */
function refusePollFields(row: WebhookRow, input: UpdateWebhookInput): void {
  if (row.kind !== 'poll') return;
  const refused: Array<[keyof UpdateWebhookInput, boolean, string]> = [
    ['url', input.url !== undefined, 'a poll subscription has no URL: its consumer polls'],
    ['rateLimitPerSecond', input.rateLimitPerSecond != null, 'a poll subscription is read at its own pace'],
    ['ordering', input.ordering === 'key', 'a poll subscription is read in order already'],
  ];
  const fields = refused.filter(([, bad]) => bad).map(([field, , message]) => ({ field, message }));
  if (fields.length === 0) return;
  throw new AppError('validation_error', `Invalid request: ${fields[0]!.field}: ${fields[0]!.message}`, { fields });
}

export async function changeWebhook(deps: Deps, caller: Caller, id: string, input: UpdateWebhookInput) {
  const accountId = caller.principal.accountId;
  const current = await requireWebhook(deps, accountId, id);
  refuseStream(current);
  refusePollFields(current, input);
  requireOrderingKeys(input.ordering ?? current.ordering, input.events ?? current.events);
  const scheme = input.signatureScheme ?? current.signature_scheme;
  const legacy = input.legacySecret === undefined ? current.legacy_secret_sealed !== null : input.legacySecret !== null;
  requireNoLegacySecret(scheme, legacy);
  // A new filter, or new events under the old one: the filter must fit the events it will filter.
  if (input.filter !== undefined || input.events !== undefined)
    requireFilterFits(input.filter === undefined ? current.filter : input.filter, input.events ?? current.events);
  // A new scheme is a new key; the old one keeps signing beside it for the overlap, as after a rotation.
  const key = scheme !== current.signature_scheme ? newSigningKey(deps.sealers.webhook, scheme) : null;
  const patch: Partial<WebhookRow> = await destinationPatch(deps, current.kind, input);
  if (input.events !== undefined) patch.events = input.events;
  if (input.description !== undefined) patch.description = input.description;
  if (input.rateLimitPerSecond !== undefined) patch.rate_limit_per_second = input.rateLimitPerSecond;
  if (input.tenant !== undefined) patch.tenant = input.tenant;
  if (input.ordering !== undefined) patch.ordering = input.ordering;
  if (input.filter !== undefined) patch.filter = input.filter;
  if (input.legacySecret !== undefined)
    patch.legacy_secret_sealed = input.legacySecret === null ? null : deps.sealers.webhook.seal(input.legacySecret);
  const { row, released } = await transaction(deps.db, async (trx) => {
    let updated = Object.keys(patch).length
      ? await updateWebhook(trx, accountId, id, patch)
      : await findWebhook(trx, accountId, id);
    if (!updated) throw notFound('Webhook');
    if (key) updated = await replaceKeyOrConflict(trx, accountId, id, current.signature_scheme, key);
    // Made unordered: what waited in its keys goes now, in parallel.
    const freed = input.ordering === 'none' && current.ordering === 'key' ? await releaseOrderingKeys(trx, id) : [];
    await audit(trx, caller, 'webhook.updated', id, { fields: Object.keys(input) });
    return { row: updated, released: freed };
  });
  await scheduleDeliveries(deps, released);
  return { ...toWebhookResponse(row), secret: key?.sharedSecret ?? null };
}

export async function deleteWebhook(deps: Deps, caller: Caller, id: string): Promise<void> {
  await transaction(deps.db, async (trx) => {
    if (!(await softDeleteWebhook(trx, caller.principal.accountId, id))) throw notFound('Webhook');
    await audit(trx, caller, 'webhook.deleted', id);
  });
}

/**
 * A new key of the subscription's own scheme; the old one keeps signing beside it (a second `v1=`, `v1,` or
 * `v1a,`) for 24 hours. `signatureScheme`, when given, must be that scheme: 400 naming it otherwise.
 */
export async function rotateWebhookSecret(deps: Deps, caller: Caller, id: string, input: RotateSecretInput = {}) {
  const accountId = caller.principal.accountId;
  const current = await requireWebhook(deps, accountId, id);
  refuseStream(current);
  const scheme = current.signature_scheme;
  if (input.signatureScheme !== undefined && input.signatureScheme !== scheme) {
    const message = `this subscription signs with ${scheme}; rotate-secret makes a key of the same scheme (PATCH signatureScheme changes it)`;
    throw fieldError('signatureScheme', message);
  }
  const key = newSigningKey(deps.sealers.webhook, scheme);
  const row = await transaction(deps.db, async (trx) => {
    const rotated = await replaceKeyOrConflict(trx, accountId, id, scheme, key);
    await audit(trx, caller, 'webhook.secret_rotated', id, { signatureScheme: scheme });
    return rotated;
  });
  return {
    id,
    secret: key.sharedSecret,
    signatureScheme: scheme,
    publicKey: key.publicKey,
    previousSecretExpiresAt: iso(row.previous_secret_expires_at)!,
  };
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
    // A poll subscription's come back waiting for its consumer: no job.
    const due = !isPulledKind(activated.kind);
    const recovered = await reopenFailedDeliveries(trx, accountId, id, since, due);
    await audit(trx, caller, 'webhook.enabled', id, { recoverSince, recovered: recovered.length });
    return { row: activated, reopened: recovered, armed: due ? await rejoinOrderingKeys(trx, recovered) : [] };
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
  const webhook = await requireWebhook(deps, accountId, id);
  requireActive(webhook);
  // A poll subscription's delivery is offered again at the end of its log, at the next poll: no job.
  const due = !isPulledKind(webhook.kind);
  const delivery = isDeliveryId(deliveryId)
    ? await findDelivery(deps.db, accountId, id, deliveryId, retainedSince(deps.config))
    : undefined;
  if (!delivery) throw notFound('Delivery');
  const armed = await transaction(deps.db, async (trx) => {
    const reopened = await reopenDelivery(trx, accountId, delivery, due);
    // Reopened into its key's queue when ordered: armed when its turn comes, maybe now.
    const hastened = reopened ? undefined : await hastenDelivery(trx, accountId, delivery);
    await audit(trx, caller, 'webhook.redelivered', id, { deliveryId });
    if (!due) return [];
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
