import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../src/http/context.js';
import { errorRenderer } from '../../src/http/middleware/errors.js';
import { createLogger } from '../../src/platform/logger.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { transaction } from '../../src/platform/transaction.js';

// A transaction Postgres rolls back to settle a conflict with another (here a real deadlock: two transactions
// locking two rows in opposite orders) is answered 503 in the error shape, "retry it", never 500.

describe('a request whose transaction Postgres rolls back', () => {
  let t: TestContext;
  let server: ReturnType<Koa['listen']>;
  let url: string;

  beforeAll(async () => {
    t = await createTestContext();
    await t.deps.db.raw('CREATE TABLE deadlock_rows (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)');
    await t.deps.db.raw('INSERT INTO deadlock_rows (id) VALUES (1), (2)');
    const app = new Koa<AppState>();
    app.silent = true;
    app.use(async (ctx, next) => {
      ctx.state.log = createLogger('silent');
      await next();
    });
    app.use(errorRenderer());
    app.use(async (ctx) => {
      await deadlock(t);
      ctx.body = { ok: true };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('answers 503 unavailable, saying to retry, with nothing of the database in the body', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'unavailable', type: 'api_error' });
    expect(body.error.message).toMatch(/retry/i);
    expect(JSON.stringify(body)).not.toMatch(/deadlock|40P01|deadlock_rows/i);
  });
});

/**
 * Two transactions lock row 1 and row 2, then each asks for the other's row: Postgres aborts one with 40P01.
 * Rethrows that error (the other transaction commits).
 */
async function deadlock(t: TestContext): Promise<void> {
  let firstLocked!: () => void;
  let secondLocked!: () => void;
  const first = new Promise<void>((resolve) => (firstLocked = resolve));
  const second = new Promise<void>((resolve) => (secondLocked = resolve));
  const lockBoth = (mine: number, other: number, locked: () => void, otherLocked: Promise<void>) =>
    transaction(t.deps.db, async (trx) => {
      await trx.raw('UPDATE deadlock_rows SET n = n + 1 WHERE id = ?', [mine]);
      locked();
      await otherLocked;
      await trx.raw('UPDATE deadlock_rows SET n = n + 1 WHERE id = ?', [other]);
    });
  const results = await Promise.allSettled([lockBoth(1, 2, firstLocked, second), lockBoth(2, 1, secondLocked, first)]);
  const lost = results.find((r) => r.status === 'rejected');
  if (lost) throw lost.reason;
}
