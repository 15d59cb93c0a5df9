import type { Deps } from '../app/deps.js';
import { recordAudit } from '../audit/audit.repository.js';
import { insufficientScope } from '../auth/access.js';
import type { Caller } from '../auth/principal.js';
import { requestHeadersJson } from '../delivery/attempt-headers.js';
import { buildEnvelope } from '../delivery/envelope.js';
import { reportAttempt } from '../delivery/report.js';
import { signedHeaders } from '../delivery/sign.js';
import {
  appendToLog,
  hasWaitingDeliveries,
  insertPollAttempts,
  lockPollHead,
  readLog,
  type AppendedDelivery,
  type LoggedDelivery,
} from '../delivery/sql/poll.js';
import { retainedSince } from '../maintenance/retention.js';
import { now } from '../platform/clock.js';
import { safeEqual, sha256Hex } from '../platform/crypto.js';
import { AppError, notFound } from '../platform/errors.js';
import { transaction } from '../platform/transaction.js';
import { generatePollCredential, isPollCredential } from './poll-credential.js';
import { decodePollCursor, encodePollCursor, type PollQuery } from './poll.schema.js';
import {
  commitPollCursor,
  findWebhook,
  findWebhookByPollCredential,
  setPollCredential,
  type WebhookRow,
} from './webhooks.repository.js';

// Polling endpoints (docs/webhook-polling.md#polling-endpoints, docs/adr/0089-poll-destinations.md). A poll
// subscription's deliveries wait for its consumer; a poll reads its log after a cursor and, at the end of the log,
// appends the oldest waiting deliveries to it (src/delivery/sql/poll.ts). A delivery counts as delivered when a poll
// first returns it: that poll records its attempt, succeeded, and its endpoint health. Re-reads of the log (a seek
// back, a page asked for again) return the same entries signed anew, and record nothing.

/** Who may poll a subscription: its own credential, or an account credential holding read:webhooks. */
export type PollAuth = { credential: string } | { accountId: string };

const refused = (message: string) => new AppError('invalid_credential', message);

/**
 * The subscription `webhookId` names, for its poll credential (401 when the credential is unknown, revoked or its
 * subscription deleted; 403 when it is another subscription's) or for an account that already passed its scope
 * check (404 when not its own).
 */
export async function pollSubscription(deps: Deps, auth: PollAuth, webhookId: string): Promise<WebhookRow> {
  if ('accountId' in auth) {
    const row = await findWebhook(deps.db, auth.accountId, webhookId);
    if (!row) throw notFound('Webhook');
    return row;
  }
  if (!isPollCredential(auth.credential)) throw refused('The poll credential is not valid');
  const hash = sha256Hex(auth.credential);
  const row = await findWebhookByPollCredential(deps.db, hash);
  if (!row?.poll_credential_hash || !safeEqual(row.poll_credential_hash, hash))
    throw refused('The poll credential is not valid (revoked, replaced, or its subscription deleted)');
  if (row.id !== webhookId) throw insufficientScope('read:webhooks');
  return row;
}

function requirePollKind(row: WebhookRow): void {
  if (row.kind !== 'poll')
    throw new AppError('conflict', 'This subscription is not polled: its deliveries are sent (kind is not "poll")');
}

function requirePollable(row: WebhookRow): void {
  requirePollKind(row);
  if (row.status !== 'active')
    throw new AppError('conflict', 'The webhook is disabled; enable it first (POST /v1/webhooks/:id/enable)');
}

/** One page of the log after the cursor (or the committed one), appending what waits once the log's end is reached. */
export async function pollDeliveries(deps: Deps, webhook: WebhookRow, query: PollQuery) {
  requirePollable(webhook);
  const { limit } = query;
  const after =
    query.cursor !== undefined
      ? decodePollCursor(query.cursor, webhook.id, webhook.poll_head)
      : (webhook.poll_cursor ?? 0);
  const since = retainedSince(deps.config);
  const { id, account_id: accountId } = webhook;
  const started = performance.now();

  let entries = await readLog(deps.db, accountId, id, after, since, limit + 1);
  let appended: AppendedDelivery[] = [];
  const at = now();
  if (entries.length <= limit) {
    // The end of the log: what waits is appended, under the log's lock, and recorded delivered with it.
    ({ entries, appended } = await transaction(deps.db, async (trx) => {
      const head = await lockPollHead(trx, accountId, id);
      if (head === undefined) throw notFound('Webhook');
      const read = await readLog(trx, accountId, id, after, since, limit + 1);
      if (read.length >= limit) return { entries: read, appended: [] };
      const added = await appendToLog(trx, accountId, id, head, since, limit - read.length);
      const all = added.length > 0 ? await readLog(trx, accountId, id, after, since, limit + 1) : read;
      const headersOf = new Map(all.map((e) => [e.id, signedEntry(deps, webhook, e, at).headers]));
      await insertPollAttempts(
        trx,
        added.map((delivery) => ({
          delivery,
          accountId,
          webhookId: id,
          url: webhook.url,
          requestHeaders: requestHeadersJson(headersOf.get(delivery.id) ?? {}),
          durationMs: Math.round(performance.now() - started),
        })),
      );
      return { entries: all, appended: added };
    }));
  }
  const page = entries.slice(0, limit);
  const hasMore = entries.length > limit || (await hasWaitingDeliveries(deps.db, accountId, id, since));
  reportAppended(deps, webhook, appended, Math.round(performance.now() - started), at);
  const last = page[page.length - 1];
  return {
    data: page.map((e) => signedEntry(deps, webhook, e, at)),
    hasMore,
    nextCursor: encodePollCursor(id, last ? last.poll_position : after),
  };
}

/** An entry as the poll returns it: the envelope's exact text and the headers a POST of it would carry now. */
function signedEntry(deps: Deps, webhook: WebhookRow, e: LoggedDelivery, at: Date) {
  const body = JSON.stringify(buildEnvelope(e));
  const headers = signedHeaders(deps.webhookKeys, { ...webhook, id: e.id, event: e.event }, body, at);
  return { id: e.id, event: e.event, headers, body };
}

/** Endpoint health, metrics and the log line of each delivery a poll delivered, as of any attempt. */
function reportAppended(deps: Deps, webhook: WebhookRow, appended: AppendedDelivery[], durationMs: number, at: Date) {
  for (const d of appended) {
    deps.webhookStats.record({
      accountId: webhook.account_id,
      webhookId: webhook.id,
      at: at.getTime(),
      ok: true,
      status: null,
      error: null,
      durationMs,
    });
    reportAttempt(
      deps,
      {
        accountId: webhook.account_id,
        deliveryId: d.id,
        deliveryCreatedAt: d.created_at,
        webhookId: webhook.id,
        event: d.event,
        url: webhook.url,
        seq: 0,
        attemptNumber: d.attempts,
        responseStatus: null,
        responseBody: null,
        error: null,
        errorMessage: null,
        durationMs,
      },
      'succeeded',
      d.created_at,
      at.getTime(),
    );
  }
}

/** Stores the consumer's position: a later poll without a cursor continues after it. */
export async function commitPoll(deps: Deps, webhook: WebhookRow, cursor: string) {
  requirePollKind(webhook);
  const position = decodePollCursor(cursor, webhook.id, webhook.poll_head);
  if (!(await commitPollCursor(deps.db, webhook.account_id, webhook.id, position))) throw notFound('Webhook');
  return { webhookId: webhook.id, cursor };
}

/** A new poll credential, shown once; the one it replaces stops working at once. */
export async function issuePollCredential(deps: Deps, caller: Caller, id: string) {
  const { credential, hash } = generatePollCredential();
  await changePollCredential(deps, caller, id, hash, 'webhook.poll_credential_issued');
  return { webhookId: id, pollCredential: credential };
}

/** No poll credential: the subscription is polled with account credentials only, until one is issued again. */
export async function revokePollCredential(deps: Deps, caller: Caller, id: string): Promise<void> {
  await changePollCredential(deps, caller, id, null, 'webhook.poll_credential_revoked');
}

async function changePollCredential(deps: Deps, caller: Caller, id: string, hash: string | null, action: string) {
  const accountId = caller.principal.accountId;
  const row = await findWebhook(deps.db, accountId, id);
  if (!row) throw notFound('Webhook');
  requirePollKind(row);
  await transaction(deps.db, async (trx) => {
    if (!(await setPollCredential(trx, accountId, id, hash))) throw notFound('Webhook');
    await recordAudit(trx, caller.principal, { action, targetType: 'webhook', targetId: id, ip: caller.ip });
  });
}
