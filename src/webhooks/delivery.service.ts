import { findOwner } from '../accounts/accounts.repository.js';
import { sendPlatformEmail } from '../messages/transport.js';
import { insertNotification } from '../notifications/notifications.repository.js';
import type { Config } from '../platform/config.js';
import { createSealer, type Sealer } from '../platform/crypto.js';
import type { Deps } from '../platform/deps.js';
import { safePost } from '../platform/http-client.js';
import { newUuid } from '../platform/ids.js';
import { createBatcher, perOwner } from './batcher.js';
import { disableWebhookOnce, loadSendContexts, markStopped, recordAttempt, recordRoutineAttempts, type AttemptOutcome, type SendContext } from './deliveries.repository.js';
import { signatureHeaders } from './signature.js';

export const API_VERSION = '2026-11-01';
export const USER_AGENT = 'Switchboard-Webhooks/1';

const sealers = new Map<string, Sealer>();
/**
 * The sealer for webhook secrets (key derivation is done once per process). Its `open` remembers what it opened:
 * a sealed value never changes (rotation writes a new one), and decrypting on every attempt cost more than the
 * signing itself. The memory is bounded and lives as long as the worker, which holds APP_SECRET anyway.
 */
export function webhookSealer(config: Config): Sealer {
  let s = sealers.get(config.appSecret);
  if (!s) {
    const sealer = createSealer(config.appSecret, 'webhook-secret');
    const opened = new Map<string, string>();
    s = {
      seal: sealer.seal,
      open(sealed) {
        let plain = opened.get(sealed);
        if (plain === undefined) {
          plain = sealer.open(sealed);
          if (opened.size >= 10_000) opened.clear();
          opened.set(sealed, plain);
        }
        return plain;
      },
    };
    sealers.set(config.appSecret, s);
  }
  return s;
}

// Statements of concurrent jobs in one worker process are coalesced (see batcher.ts).
const batchersOf = perOwner((deps: Deps) => ({
  load: createBatcher((ids: string[]) => loadSendContexts(deps.db, ids)),
  record: createBatcher((outcomes: AttemptOutcome[]) => recordRoutineAttempts(deps.db, outcomes)),
}));

export function buildEnvelope(ctx: Pick<SendContext, 'id' | 'event' | 'event_created_at' | 'inbox_id' | 'message_id' | 'payload'>) {
  return {
    id: ctx.id,
    event: ctx.event,
    timestamp: new Date(ctx.event_created_at).toISOString(),
    apiVersion: API_VERSION,
    inboxId: ctx.inbox_id,
    messageId: ctx.message_id,
    payload: ctx.payload,
  };
}

/** The error a failed attempt throws so BullMQ retries; `delayMs` is what the backoff strategy returns. */
export class DeliveryAttemptFailed extends Error {
  constructor(message: string, readonly delayMs: number | null) {
    super(message);
  }
}

/** The wait before retry number `attemptsMade` (1-based): the configured delay ±10%, or a bounded Retry-After. */
export function retryDelayMs(config: Config, attemptsMade: number, retryAfterMs: number | null): number {
  const delays = config.webhooks.retryDelaysMs;
  const base = delays[Math.min(attemptsMade - 1, delays.length - 1)] ?? 1000;
  if (retryAfterMs !== null) return Math.max(0, Math.min(retryAfterMs, base * 2));
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export interface AttemptJob {
  /** Attempts made before this one (BullMQ's job.attemptsMade). */
  attemptsMade: number;
  /** Total attempts this job may make. */
  maxAttempts: number;
}

/** One attempt of one delivery. Returns a short outcome; throws DeliveryAttemptFailed when BullMQ should retry. */
export async function attemptDelivery(deps: Deps, deliveryId: string, job: AttemptJob): Promise<string> {
  const { config, db } = deps;
  const batchers = batchersOf(deps);
  const ctx = await batchers.load(deliveryId);
  if (!ctx) return 'missing';
  if (ctx.status !== 'pending') return `already ${ctx.status}`;
  if (ctx.webhook_deleted_at || ctx.webhook_status !== 'active') {
    await markStopped(db, ctx.account_id, ctx.id);
    return 'subscription not active';
  }

  const body = JSON.stringify(buildEnvelope(ctx));
  const sealer = webhookSealer(config);
  const previousValid = ctx.previous_secret_sealed && ctx.previous_secret_expires_at && new Date(ctx.previous_secret_expires_at) > new Date();
  const headers = {
    'user-agent': USER_AGENT,
    'x-switchboard-event': ctx.event,
    'x-switchboard-delivery': ctx.id,
    ...signatureHeaders(ctx.id, body, Math.floor(Date.now() / 1000), {
      current: sealer.open(ctx.secret_sealed),
      previous: previousValid ? sealer.open(ctx.previous_secret_sealed!) : null,
      legacy: ctx.legacy_secret_sealed ? sealer.open(ctx.legacy_secret_sealed) : null,
    }),
  };
  const res = await safePost(config, ctx.url, body, headers);
  const base = { accountId: ctx.account_id, deliveryId: ctx.id, webhookId: ctx.webhook_id, event: ctx.event, url: ctx.url, durationMs: res.durationMs };

  if (res.ok) {
    await batchers.record({ ...base, outcome: 'succeeded', responseStatus: res.status, responseBody: res.body, error: null, errorMessage: null, nextAttemptAt: null });
    return 'succeeded';
  }

  const failure = { responseStatus: res.status ?? null, responseBody: res.body ?? null, error: res.error, errorMessage: res.message };
  if (res.status === 410) {
    // The receiver says the endpoint is gone: stop at once, do not wait for 20 exhausted deliveries.
    await recordAttempt(db, { ...base, ...failure, outcome: 'gaveUp', nextAttemptAt: null });
    await disableAndNotify(deps, ctx, 'The receiver answered 410 Gone.');
    return 'gone';
  }
  if (job.attemptsMade + 1 >= job.maxAttempts) {
    const { consecutiveFailures } = await recordAttempt(db, { ...base, ...failure, outcome: 'exhausted', nextAttemptAt: null });
    if (consecutiveFailures !== null && consecutiveFailures >= config.webhooks.disableAfter) {
      await disableAndNotify(deps, ctx, `${consecutiveFailures} consecutive deliveries failed every retry.`, config.webhooks.disableAfter);
    }
    throw new DeliveryAttemptFailed(`delivery exhausted: ${res.message}`, null);
  }
  const retryAfter = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers?.['retry-after']) : null;
  const delayMs = retryDelayMs(config, job.attemptsMade + 1, retryAfter);
  await batchers.record({ ...base, ...failure, outcome: 'failed', nextAttemptAt: new Date(Date.now() + delayMs) });
  throw new DeliveryAttemptFailed(`attempt ${job.attemptsMade + 1} failed: ${res.message}`, delayMs);
}

/** Disables the subscription if this caller wins the transition, then tells the owner (row + email). */
async function disableAndNotify(deps: Deps, ctx: SendContext, reason: string, threshold?: number): Promise<void> {
  const won = await disableWebhookOnce(deps.db, ctx.account_id, ctx.webhook_id, reason, threshold);
  if (!won) return;
  deps.logger.warn({ webhookId: ctx.webhook_id, accountId: ctx.account_id, reason }, 'webhook subscription disabled');
  const title = 'A webhook subscription was disabled';
  const text = `Deliveries to ${ctx.url} (${ctx.webhook_id}) have stopped. ${reason} Fix the receiver, then re-enable it with POST /v1/webhooks/${ctx.webhook_id}/enable (optionally with recoverSince to re-send what failed).`;
  await insertNotification(deps.db, ctx.account_id, {
    kind: 'webhook.disabled',
    title,
    body: text,
    data: { webhookId: ctx.webhook_id, url: ctx.url, reason },
    dedupeKey: `webhook.disabled:${ctx.webhook_id}:${newUuid()}`,
  });
  const owner = await findOwner(deps.db, ctx.account_id);
  if (!owner) return;
  try {
    await sendPlatformEmail(deps, { to: owner.email, subject: title, text });
  } catch (err) {
    // The notification row is the record; a mail server hiccup must not fail the delivery job.
    deps.logger.warn({ webhookId: ctx.webhook_id, err: (err as Error).message }, 'webhook-disabled email failed');
  }
}
