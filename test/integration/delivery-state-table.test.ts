import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventWithDeliveries } from '../../src/delivery/sql/fan-out.js';
import {
  recordExhaustions,
  recordGone,
  recordRetries,
  recordSuccesses,
  stopDelivery,
  type AttemptRecord,
} from '../../src/delivery/sql/record.js';
import { hastenDelivery, reopenDelivery, reopenFailedDeliveries } from '../../src/webhooks/deliveries.repository.js';
import { type DeliveryRow, type DeliveryStatus } from '../../src/delivery/sql/rows.js';
import { bumpDeliveryJobSeqs } from '../../src/delivery/sql/sweep.js';
import { newId } from '../../src/platform/ids.js';
import { client, signupAccount } from '../helpers/http.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { transaction } from '../../src/platform/transaction.js';

// Every transition of docs/webhooks.md#the-delivery-state-machine, from every status, called with the row's
// job_seq and with an older one, against the real statements. Only the transition's guard may let a row move: a
// stale job_seq or a state the transition does not leave changes nothing, and an attempt is recorded whether or
// not the delivery moved (it happened). No worker runs and no job is added, so nothing else touches the rows.

let t: TestContext;
let accountId: string;
let templateWebhookId: string;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const api = client(t.url);
  const owner = await signupAccount(api);
  accountId = owner.accountId;
  const wh = await api.post('/v1/webhooks', {
    token: owner.token,
    body: { url: 'http://127.0.0.1:9/hook', events: ['message.received'] },
  });
  templateWebhookId = (wh.body as { id: string }).id;
});
afterAll(async () => {
  await t?.close();
});

const SEQ = 3;
const COUNT = 1;
type Seq = 'current' | 'stale';
type Delivery = Pick<DeliveryRow, 'id' | 'created_at' | 'webhook_id' | 'job_seq'>;

/** A delivery alone on its own subscription (so a sweep over the subscription sees it only), in `status`. */
async function deliveryIn(status: DeliveryStatus): Promise<Delivery> {
  const db = t.deps.db;
  const template = await db('webhooks').where({ id: templateWebhookId }).first();
  const webhookId = newId('wh');
  await db('webhooks').insert({ ...template, id: webhookId, consecutive_failures: COUNT });
  const { deliveryIds } = await transaction(db, (trx) =>
    insertEventWithDeliveries(trx, accountId, { type: 'message.received', payload: {} }, webhookId),
  );
  const final = status !== 'pending';
  const [row] = await db('webhook_deliveries')
    .where({ id: deliveryIds[0] })
    .update({
      status,
      attempts: 2,
      round_attempts: 2,
      job_seq: SEQ,
      // A pending delivery waits for a retry in an hour; a final one waits for nothing.
      next_attempt_at: final ? null : db.raw("now() + interval '1 hour'"),
      completed_at: final ? db.fn.now() : null,
    })
    .returning(['id', 'created_at', 'webhook_id', 'job_seq']);
  return row;
}

function attempt(d: Delivery, seq: number, retryDelayMs?: number): AttemptRecord {
  return {
    accountId,
    deliveryId: d.id,
    deliveryCreatedAt: d.created_at,
    webhookId: d.webhook_id,
    event: 'message.received',
    url: 'http://127.0.0.1:9/hook',
    seq,
    attemptNumber: 3,
    responseStatus: 500,
    responseBody: 'no',
    error: 'http_status',
    errorMessage: 'receiver answered 500',
    durationMs: 4,
    retryDelayMs,
  };
}

/** What a transition does to a row it moves; fields it leaves alone are not named. */
interface Moved {
  status: DeliveryStatus;
  attempts?: '+1';
  round_attempts?: '+1' | 0;
  job_seq?: '+1';
  next_attempt_at: 'set' | 'null' | 'as before';
  count?: number;
}

interface Transition {
  /** The states its WHERE lets it leave. */
  leaves: readonly DeliveryStatus[];
  /** Whether its WHERE names the job_seq of the job that makes it (people and sweeps over a subscription don't). */
  seqGuarded: boolean;
  /** Whether it records an attempt row (an attempt made by a job). */
  records: boolean;
  to: Moved;
  run(d: Delivery, seq: number): Promise<unknown>;
}

const byAttempt = { leaves: ['pending'], seqGuarded: true, records: true } as const;
const transitions: Record<string, Transition> = {
  success: {
    ...byAttempt,
    to: { status: 'succeeded', attempts: '+1', round_attempts: '+1', next_attempt_at: 'null', count: 0 },
    run: (d, seq) => recordSuccesses(t.deps.db, [attempt(d, seq)]),
  },
  'retry scheduled': {
    ...byAttempt,
    to: { status: 'pending', attempts: '+1', round_attempts: '+1', job_seq: '+1', next_attempt_at: 'set' },
    run: (d, seq) => recordRetries(t.deps.db, [attempt(d, seq, 30_000)]),
  },
  exhausted: {
    ...byAttempt,
    to: { status: 'exhausted', attempts: '+1', round_attempts: '+1', next_attempt_at: 'null', count: COUNT + 1 },
    run: (d, seq) => recordExhaustions(t.deps.db, [attempt(d, seq)]),
  },
  gone: {
    ...byAttempt,
    to: { status: 'failed', attempts: '+1', round_attempts: '+1', next_attempt_at: 'null' },
    run: (d, seq) => recordGone(t.deps.db, [attempt(d, seq)]),
  },
  stopped: {
    leaves: ['pending'],
    seqGuarded: true,
    records: false,
    to: { status: 'failed', next_attempt_at: 'null' },
    run: (d, seq) => stopDelivery(t.deps.db, accountId, d, seq),
  },
  'job_seq bump (sweep)': {
    leaves: ['pending'],
    seqGuarded: true,
    records: false,
    to: { status: 'pending', job_seq: '+1', next_attempt_at: 'as before' },
    run: (d, seq) => bumpDeliveryJobSeqs(t.deps.db, [{ ...d, job_seq: seq }]),
  },
  'hasten (redeliver while pending)': {
    leaves: ['pending'],
    seqGuarded: false,
    records: false,
    to: { status: 'pending', job_seq: '+1', next_attempt_at: 'set' },
    run: (d) => hastenDelivery(t.deps.db, accountId, d),
  },
  'reopen (redeliver)': {
    leaves: ['succeeded', 'failed', 'exhausted'],
    seqGuarded: false,
    records: false,
    to: { status: 'pending', round_attempts: 0, job_seq: '+1', next_attempt_at: 'set' },
    run: (d) => reopenDelivery(t.deps.db, accountId, d),
  },
  'reopen failed (recoverSince)': {
    leaves: ['failed', 'exhausted'],
    seqGuarded: false,
    records: false,
    to: { status: 'pending', round_attempts: 0, job_seq: '+1', next_attempt_at: 'set' },
    run: (d) => reopenFailedDeliveries(t.deps.db, accountId, d.webhook_id, d.created_at),
  },
};

const statuses: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'exhausted'];
const seqs: Seq[] = ['current', 'stale'];
const cases = Object.entries(transitions).flatMap(([name, tr]) =>
  statuses.flatMap((from) =>
    seqs.map((seq) => ({
      name,
      from,
      seq,
      tr,
      moves: tr.leaves.includes(from) && (seq === 'current' || !tr.seqGuarded),
    })),
  ),
);

const plus = (before: number, change: '+1' | 0 | undefined) =>
  change === '+1' ? before + 1 : change === 0 ? 0 : before;

describe('the delivery state machine, transition × starting state × job_seq', () => {
  it.each(cases)('$name from $from with the $seq job_seq (moves: $moves)', async ({ from, seq, tr, moves }) => {
    const db = t.deps.db;
    const d = await deliveryIn(from);
    const before = (await db('webhook_deliveries').where({ id: d.id }).first()) as DeliveryRow;

    await tr.run(d, seq === 'current' ? SEQ : SEQ - 1);

    const after = (await db('webhook_deliveries').where({ id: d.id }).first()) as DeliveryRow;
    const count = (await db('webhooks').where({ id: d.webhook_id }).first()).consecutive_failures;
    const attempts = await db('webhook_attempts').where({ delivery_id: d.id });
    expect(attempts).toHaveLength(tr.records ? 1 : 0);

    if (!moves) {
      expect(after).toEqual(before);
      expect(count).toBe(COUNT);
      // An attempt that no longer holds the delivery is recorded, but plans no next attempt.
      if (tr.records) expect(attempts[0].next_attempt_at).toBeNull();
      return;
    }
    const to = tr.to;
    expect({
      status: after.status,
      attempts: after.attempts,
      round_attempts: after.round_attempts,
      job_seq: after.job_seq,
      count,
    }).toEqual({
      status: to.status,
      attempts: plus(before.attempts, to.attempts),
      round_attempts: plus(before.round_attempts, to.round_attempts),
      job_seq: plus(before.job_seq, to.job_seq),
      count: to.count ?? COUNT,
    });
    if (to.next_attempt_at === 'null') expect(after.next_attempt_at).toBeNull();
    if (to.next_attempt_at === 'as before') expect(after.next_attempt_at).toEqual(before.next_attempt_at);
    if (to.next_attempt_at === 'set') {
      expect(after.next_attempt_at).toBeInstanceOf(Date);
      expect(after.next_attempt_at).not.toEqual(before.next_attempt_at);
    }
    expect(after.completed_at === null).toBe(to.status === 'pending');
    if (tr.records) {
      // Only a retry that moved the delivery plans its next attempt, on the attempt row as on the delivery.
      expect(attempts[0].next_attempt_at).toEqual(to.next_attempt_at === 'set' ? after.next_attempt_at : null);
    }
  });
});
