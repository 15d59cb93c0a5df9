import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction, type Trx } from '../../src/platform/transaction.js';
import { insertEventWithDeliveries } from '../../src/delivery/sql/fan-out.js';
import { loadSendContexts } from '../../src/delivery/sql/load.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The hot statements run on node-postgres directly (runPrepared), under knex's pool and transactions: a statement
// given a transaction is part of it, and a transaction that is over refuses it.

let t: TestContext;
let owner: SetupAccount & { webhook: { id: string; secret: string } };

beforeAll(async () => {
  t = await createTestContext();
  owner = await setupAccount(t, { webhook: { url: 'https://example.com/hook', events: ['contact.created'] } });
});
afterAll(async () => t?.close());

const event = { type: 'contact.created' as const, payload: { id: 'ct_prepared' } };
const countEvents = async () =>
  Number((await t.deps.db('events').where({ account_id: owner.accountId }).count({ n: '*' }))[0]!.n);

describe('prepared statements on the pool and in transactions', () => {
  it('belong to the transaction they are given: a rollback takes the event and its delivery with it', async () => {
    const before = await countEvents();
    let written: { eventId: string; deliveryIds: string[] } | undefined;
    await expect(
      transaction(t.deps.db, async (trx) => {
        written = await insertEventWithDeliveries(trx, owner.accountId, event);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(written!.deliveryIds).toHaveLength(1);
    expect(await countEvents()).toBe(before);
    expect(await loadSendContexts(t.deps.db, written!.deliveryIds)).toEqual([undefined]);

    // Committed, the same statement's rows are there and the worker's load (on the pool) finds the delivery.
    const committed = await transaction(t.deps.db, (trx) => insertEventWithDeliveries(trx, owner.accountId, event));
    expect(await countEvents()).toBe(before + 1);
    const [loaded] = await loadSendContexts(t.deps.db, committed.deliveryIds);
    expect(loaded).toMatchObject({ id: committed.deliveryIds[0], event_id: committed.eventId, status: 'pending' });
    expect(loaded!.webhook_id).toBe(owner.webhook.id);
  });

  it('refuse a transaction that is over, as knex does, instead of running on its released connection', async () => {
    let finished: Trx | undefined;
    await transaction(t.deps.db, async (trx) => {
      finished = trx;
    });
    await expect(insertEventWithDeliveries(finished!, owner.accountId, event)).rejects.toThrow(/already complete/);
  });
});
