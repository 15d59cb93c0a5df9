import type { Caller } from '../auth/principal.js';
import { recordAudit } from '../audit/audit.repository.js';
import type { EventType } from '../events/event-types.js';
import type { Deps } from '../app/deps.js';
import { AppError, notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { insertEventWithDeliveries } from '../delivery/sql/fan-out.js';
import { closeStreams } from '../delivery/sql/subscriptions.js';
import { scheduleCommitted } from '../delivery/schedule.js';
import type { SignatureScheme } from '../delivery/sign.js';
import { newSigningKey } from './signing-keys.js';
import type { StreamSink } from './stream-hub.js';
import type { StreamReport } from '../delivery/transports/stream-messages.js';
import { findWebhook, insertWebhook, lockOpenStreams } from './webhooks.repository.js';
import { transaction } from '../platform/transaction.js';

// Stream destinations (docs/adr/0054-stream-destinations.md): a subscription that exists while one `switchboard
// listen` session is connected. Opening subscribes this process to the stream's channel first and then inserts the
// row, so no delivery is made for a stream nobody holds; closing deletes the row, so its pending deliveries stop.

export interface OpenedStream {
  webhookId: string;
  events: string[];
  /** The whsec_ of an hmac-sha256 stream, shown in its opened event; null for ed25519. */
  secret: string | null;
  signatureScheme: SignatureScheme;
  publicKey: string | null;
  close(reason: string): Promise<void>;
}

export async function openStream(
  deps: Deps,
  caller: Caller,
  events: string[],
  signatureScheme: SignatureScheme,
  sink: StreamSink,
): Promise<OpenedStream> {
  const accountId = caller.principal.accountId;
  const webhookId = newId('wh');
  const key = newSigningKey(deps.sealers.webhook, signatureScheme);
  await deps.streamHub.attach(webhookId, sink);
  try {
    await transaction(deps.db, async (trx) => {
      const open = await lockOpenStreams(trx, accountId);
      // A stream whose web process died without closing it has no holder left: it is closed here, not counted.
      const holders = await deps.streamHub.holders(open);
      const orphans = holders ? open.filter((_id, i) => holders[i] === 0) : [];
      await closeStreams(trx, accountId, orphans);
      const limit = deps.config.webhooks.streamsPerAccount;
      if (open.length - orphans.length >= limit) {
        throw new AppError('rate_limited', `This account already has ${limit} open streams; end one first`, { limit });
      }
      await insertWebhook(trx, accountId, {
        id: webhookId,
        kind: 'stream',
        url: `stream://${webhookId}`,
        events,
        description: 'switchboard listen',
        signature_scheme: signatureScheme,
        secret_sealed: key.secretSealed,
        public_key: key.publicKey,
        legacy_secret_sealed: null,
        rate_limit_per_second: null,
        tenant: null,
      });
      await recordAudit(trx, caller.principal, {
        action: 'webhook.stream_opened',
        targetType: 'webhook',
        targetId: webhookId,
        ip: caller.ip,
        details: { events, signatureScheme },
      });
    });
  } catch (err) {
    await deps.streamHub.detach(webhookId, 'The stream was not opened');
    throw err;
  }
  let closed: Promise<void> | undefined;
  return {
    webhookId,
    events,
    secret: key.sharedSecret,
    signatureScheme,
    publicKey: key.publicKey,
    close(reason) {
      closed ??= (async () => {
        // The row first: a worker that finds the subscription deleted stops its delivery instead of sending it.
        await closeStreams(deps.db, accountId, [webhookId]);
        await deps.streamHub.detach(webhookId, reason);
      })();
      return closed;
    },
  };
}

/** The CLI's report of one delivery it forwarded, to the worker waiting for it. */
export async function reportStreamDelivery(deps: Deps, accountId: string, webhookId: string, report: StreamReport) {
  const webhook = await findWebhook(deps.db, accountId, webhookId);
  if (!webhook || webhook.kind !== 'stream') throw notFound('Stream');
  await deps.streamHub.report({ ...report, webhookId });
  return { accepted: true as const };
}

/**
 * `switchboard trigger`: one event of `type` with the caller's payload (already valid against the type's schema),
 * fanned out to the account's subscriptions that ask for it, as if the platform had emitted it.
 */
export async function sendTestEventOfType(
  deps: Deps,
  caller: Caller,
  type: EventType,
  payload: Record<string, unknown>,
) {
  const accountId = caller.principal.accountId;
  const fannedOut = await transaction(deps.db, async (trx) => {
    const f = await insertEventWithDeliveries(trx, accountId, { type, payload });
    await recordAudit(trx, caller.principal, {
      action: 'webhook.test_event_sent',
      targetType: 'event',
      targetId: f.eventId,
      ip: caller.ip,
      details: { event: type, deliveries: f.deliveryIds.length },
    });
    return f;
  });
  await scheduleCommitted(deps, [fannedOut]);
  return { eventId: fannedOut.eventId, event: type, deliveryIds: fannedOut.deliveryIds };
}
