import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, prepare, runPrepared, type Db } from '../../src/platform/db.js';
import { transaction, type Trx } from '../../src/platform/transaction.js';
import { isUniqueViolation } from '../../src/platform/pg-errors.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The service's transactions (src/platform/transaction.ts): what they commit, what they roll back, their savepoints,
// and the connection each holds, on a real Postgres. A pool of one connection makes a connection that was not given
// back, or a statement sent outside its transaction, show as a wait that never ends or a row that should not be there.

const ids = (db: Db) => db('trx_rows').orderBy('id').pluck('id');
const countRows = prepare<{ n: number }>('trx_test_count', 'SELECT count(*)::int AS n FROM trx_rows');

describe('transaction', () => {
  let t: TestContext;
  let db: Db;

  beforeAll(async () => {
    t = await createTestContext();
    db = createDb(t.deps.config.database.url, { pool: { min: 0, max: 1 } });
    await db.raw('CREATE TABLE trx_rows (id int PRIMARY KEY, note text, copy int, at timestamptz)');
  });
  beforeEach(async () => {
    await db('trx_rows').delete();
  });
  afterAll(async () => {
    await db.destroy();
    await t.close();
  });

  it('commits what its work wrote and answers what the work returned', async () => {
    const answer = await transaction(db, async (trx) => {
      await trx('trx_rows').insert({ id: 1 });
      await trx.raw('INSERT INTO trx_rows (id) VALUES (?)', [2]);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await ids(db)).toEqual([1, 2]);
  });

  it("builds a column's reference and a function into its statements", async () => {
    await transaction(db, async (trx) => {
      await trx('trx_rows').insert({ id: 7 });
      await trx('trx_rows')
        .where({ id: 7 })
        .update({ copy: trx.ref('id'), at: trx.fn.now() });
    });
    const row = await db('trx_rows').where({ id: 7 }).first();
    expect(row).toMatchObject({ id: 7, copy: 7 });
    expect(row.at).toBeInstanceOf(Date);
  });

  it('rolls back everything when the work throws, and passes the error on', async () => {
    const failure = new Error('the work failed');
    await expect(
      transaction(db, async (trx) => {
        await trx('trx_rows').insert({ id: 1 });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await ids(db)).toEqual([]);
  });

  it('runs prepared statements on its own connection, seeing its uncommitted rows', async () => {
    const seen = await transaction(db, async (trx) => {
      await trx('trx_rows').insert([{ id: 1 }, { id: 2 }]);
      return (await runPrepared(trx, countRows, []))[0]!.n;
    });
    expect(seen).toBe(2);
  });

  it('keeps what a savepoint rolled back out, and the rest of the transaction in', async () => {
    await transaction(db, async (trx) => {
      await trx('trx_rows').insert({ id: 1 });
      const duplicate = await trx
        .transaction((sp) => sp('trx_rows').insert([{ id: 2 }, { id: 1 }]))
        .catch((err: unknown) => err);
      expect(isUniqueViolation(duplicate)).toBe(true);
      // The transaction goes on after the savepoint's failure, as if it had not been tried.
      await trx.transaction((sp) => sp('trx_rows').insert({ id: 3 }));
      await trx('trx_rows').insert({ id: 4 });
    });
    expect(await ids(db)).toEqual([1, 3, 4]);
  });

  it('nests as a savepoint when given a transaction where a pool is expected, committing nothing early', async () => {
    const outer = await transaction(db, async (trx) => {
      await trx('trx_rows').insert({ id: 1 });
      await transaction(trx as unknown as Db, (inner) => inner('trx_rows').insert({ id: 2 }));
      const failed = await transaction(trx as unknown as Db, async (inner) => {
        await inner('trx_rows').insert({ id: 3 });
        throw new Error('the inner work failed');
      }).catch((err: unknown) => err);
      expect(failed).toEqual(new Error('the inner work failed'));
      throw new Error('the outer work failed');
    }).catch((err: unknown) => err);
    // The outer work's own error, not an assertion above that failed and was swallowed with it.
    expect(outer).toEqual(new Error('the outer work failed'));
    // Had the inner call sent its own COMMIT, rows 1 and 2 would be there.
    expect(await ids(db)).toEqual([]);
    await transaction(db, async (trx) => {
      await trx('trx_rows').insert({ id: 1 });
      await transaction(trx as unknown as Db, (inner) => inner('trx_rows').insert({ id: 2 }));
      await transaction(trx as unknown as Db, async (inner) => {
        await inner('trx_rows').insert({ id: 3 });
        throw new Error('rolled back alone');
      }).catch(() => undefined);
    });
    expect(await ids(db)).toEqual([1, 2]);
  });

  it('refuses a statement sent once the transaction is over, and does not run it', async () => {
    let kept!: Trx;
    await transaction(db, async (trx) => {
      kept = trx;
      expect(trx.isCompleted()).toBe(false);
    });
    expect(kept.isCompleted()).toBe(true);
    await expect(kept('trx_rows').insert({ id: 9 })).rejects.toThrow(/Transaction query already complete/);
    await expect(runPrepared(kept, countRows, [])).rejects.toThrow(/Transaction query already complete/);
    expect(await ids(db)).toEqual([]);
  });

  it('gives its connection back after a commit, a rollback, and a COMMIT Postgres refused', async () => {
    await transaction(db, (trx) => trx('trx_rows').insert({ id: 1 }));
    await transaction(db, async () => {
      throw new Error('rolled back');
    }).catch(() => undefined);
    // A deferred check fails at COMMIT: Postgres ends the transaction, and the commit's error is the caller's.
    await db.raw(
      'ALTER TABLE trx_rows ADD CONSTRAINT trx_rows_note_unique UNIQUE (note) DEFERRABLE INITIALLY DEFERRED',
    );
    const refused = await transaction(db, (trx) =>
      trx('trx_rows').insert([
        { id: 2, note: 'same' },
        { id: 3, note: 'same' },
      ]),
    ).catch((err: unknown) => err);
    expect(isUniqueViolation(refused)).toBe(true);
    await db.raw('ALTER TABLE trx_rows DROP CONSTRAINT trx_rows_note_unique');
    // With one connection in the pool, this would wait forever for one not given back.
    expect(await ids(db)).toEqual([1]);
    await transaction(db, (trx) => trx('trx_rows').insert({ id: 4 }));
    expect(await ids(db)).toEqual([1, 4]);
  });

  it('sends its BEGIN, statements and COMMIT as knex queries, so what listens to knex sees them', async () => {
    const sent: string[] = [];
    const listener = (q: { sql: string }) => sent.push(q.sql);
    db.on('query', listener);
    try {
      await transaction(db, async (trx) => {
        await trx('trx_rows').insert({ id: 1 });
        await runPrepared(trx, countRows, []);
      });
    } finally {
      db.off('query', listener);
    }
    expect(sent[0]).toBe('BEGIN');
    expect(sent[1]).toMatch(/^insert into "trx_rows"/);
    expect(sent[2]).toBe(countRows.text);
    expect(sent[3]).toBe('COMMIT');
  });
});
