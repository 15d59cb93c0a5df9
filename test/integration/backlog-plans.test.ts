import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fanOut from '../../src/delivery/sql/fan-out.js';
import * as recordSql from '../../src/delivery/sql/record.js';
import * as rows from '../../src/delivery/sql/rows.js';
import { captureStatements, pagesTouched } from '../helpers/explain.js';
import { failedAttemptOf, seedAccountId, seedAccounts, seedWebhookId } from '../helpers/seed-traffic.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { transaction } from '../../src/platform/transaction.js';

// A backlog: one subscription's receiver was away and today's partition holds thousands of its deliveries, all
// pending, before the partition's first analyze. Recording one attempt must read that delivery's row by primary
// key, whatever plan Postgres keeps: a plan that read today's pending deliveries to find the batch's made every
// record cost as much as the backlog is long (docs/plans.md#the-attempt-records).

const BACKLOG = 3_000;
const A = seedAccountId(1);
const W = seedWebhookId(1);

let t: TestContext;
let explainer: pg.Client;
let pending: rows.ScheduledDelivery;

beforeAll(async () => {
  t = await createTestContext();
  await seedAccounts(t.deps, 2, 2);
  for (let i = 0; i < BACKLOG; i++)
    await transaction(t.deps.db, (trx) =>
      fanOut.insertEventWithDeliveries(trx, A, { type: 'message.received', payload: { n: i } }, W),
    );
  pending = (await t.deps
    .db('webhook_deliveries')
    .select('id', 'created_at', 'job_seq', 'event', 'webhook_id', 'ordering_key')
    .where({ webhook_id: W, status: 'pending' })
    .orderBy('id', 'desc')
    .first())!;
  explainer = new pg.Client({ connectionString: t.deps.config.database.url });
  await explainer.connect();
}, 900_000);
afterAll(async () => {
  await explainer?.end();
  await t?.close();
});

describe('recording an attempt during a backlog', () => {
  it("reads the delivery's row, not the backlog, in each transition's generic plan", async () => {
    const record = failedAttemptOf(pending, A, W);
    const statements = await captureStatements(t.deps.db, async (trx) => [
      await recordSql.recordSuccesses(trx, [record]),
      await recordSql.recordRetries(trx, [record]),
      await recordSql.recordExhaustions(trx, [record]),
      await recordSql.recordGone(trx, [record]),
    ]);
    const transitions = statements.filter((s) => /UPDATE webhook_deliveries wd/.test(s.sql));
    expect(transitions).toHaveLength(4);
    // A probe by primary key touches a few pages; a scan of the backlog's 3,000 rows touches about a hundred.
    for (const s of transitions) expect(await pagesTouched(explainer, s, 'webhook_deliveries'), s.sql).toBeLessThan(20);
  });
});
