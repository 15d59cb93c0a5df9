import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as deliveries from '../../src/webhooks/deliveries.repository.js';
import { captureStatements, pagesTouched } from '../helpers/explain.js';
import { failedAttemptOf, seedAccountId, seedAccounts, seedWebhookId } from '../helpers/seed-traffic.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// A backlog: one subscription's receiver was away and today's partition holds thousands of its deliveries, all
// pending, before the partition's first analyze. The statements that look up a few deliveries must read those by
// primary key, whatever plan Postgres keeps: a plan that reads today's pending deliveries to find its few costs as
// much as the backlog is long (docs/plans.md#the-attempt-records).

const BACKLOG = 3_000;
const A = seedAccountId(1);
const W = seedWebhookId(1);

let t: TestContext;
let explainer: pg.Client;
let pending: deliveries.ArmedDelivery & { event_id: string };

beforeAll(async () => {
  t = await createTestContext();
  await seedAccounts(t.deps, 2, 2);
  for (let i = 0; i < BACKLOG; i++)
    await t.deps.db.transaction((trx) =>
      deliveries.insertEventWithDeliveries(trx, A, { type: 'message.received', payload: { n: i } }, W),
    );
  pending = (await t.deps
    .db('webhook_deliveries')
    .select('id', 'created_at', 'job_seq', 'event', 'webhook_id', 'ordering_key', 'event_id')
    .where({ webhook_id: W, status: 'pending' })
    .orderBy('id', 'desc')
    .first())!;
  explainer = new pg.Client({ connectionString: t.deps.config.database.url });
  await explainer.connect();
}, 120_000);
afterAll(async () => {
  await explainer?.end();
  await t?.close();
});

describe('during a backlog', () => {
  it("reads the delivery's row, not the backlog, in each transition's generic plan", async () => {
    const record = failedAttemptOf(pending, A, W);
    const statements = await captureStatements(t.deps.db, async (trx) => [
      await deliveries.recordSuccesses(trx, [record]),
      await deliveries.recordRetries(trx, [record]),
      await deliveries.recordExhaustions(trx, [record]),
      await deliveries.recordGone(trx, [record]),
    ]);
    const transitions = statements.filter((s) => /UPDATE webhook_deliveries wd/.test(s.sql));
    expect(transitions).toHaveLength(4);
    // A probe by primary key touches a few pages; a scan of the backlog's 3,000 rows touches about a hundred.
    for (const s of transitions) expect(await pagesTouched(explainer, s, 'webhook_deliveries'), s.sql).toBeLessThan(20);
  });

  it("finds an event's deliveries for its fan-out job by reading that event's, not the backlog", async () => {
    // A longer backlog (written directly: 50,000 more pending deliveries, an hour apart from the event's), analyzed
    // as the maintenance job analyzes a filling day.
    await t.deps.db.raw(
      `INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at, next_attempt_at)
       SELECT sb_uuid_v7(at), ?, ?, 'evt_backlog' || g, 'message.received', at, at, at
         FROM (SELECT g, ?::timestamptz - interval '1 hour' + g * interval '1 millisecond' AS at
                 FROM generate_series(1, 50000) g) s`,
      [A, W, pending.created_at],
    );
    await t.deps.db.raw('ANALYZE webhook_deliveries');
    const statements = await captureStatements(t.deps.db, (trx) =>
      deliveries.findPendingDeliveriesOfEvent(trx, pending.event_id),
    );
    const lookup = statements.filter((s) => /from "webhook_deliveries"/.test(s.sql));
    expect(lookup).toHaveLength(1);
    expect(await pagesTouched(explainer, lookup[0]!, 'webhook_deliveries'), lookup[0]!.sql).toBeLessThan(20);
  });
});
