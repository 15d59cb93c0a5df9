import type { Knex } from 'knex';
import type { Conn, Db, PgConnection } from './db.js';

/** An open transaction: what repositories take as a Conn, and a savepoint inside it. */
export interface Trx extends Conn {
  readonly isTransaction: true;
  /** True once the transaction (or savepoint) has committed or rolled back: its statements are refused. */
  isCompleted(): boolean;
  /** `work` under a savepoint: rolled back alone when it throws (and the error passed on), released when not. */
  transaction<T>(work: (savepoint: Trx) => Promise<T>): Promise<T>;
  /** The transaction's node-postgres connection, refusing statements once it is over: runPrepared sends on it. */
  readonly pgConnection: PgConnection;
}

/**
 * Runs `work` in one transaction on one of the pool's connections: BEGIN, then COMMIT when `work` resolves, or
 * ROLLBACK when it throws (the error passed on). What `work` gets builds its statements with the pool's knex and runs
 * them on that connection (knex's `.connection()`), without what `db.transaction` builds for each one, a whole knex
 * instance of a hundred or so closures. Measured on one event's commit, that instance cost a third more node CPU and five times
 * the collector's pauses, which at hundreds of commits a second set the delivery pipeline's tail
 * (docs/performance.md#delivery-pipeline-cost-per-event).
 */
export async function transaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  // A transaction handed on as a Db (a bench's deps whose db is one) nests as a savepoint, as knex's did: its own
  // BEGIN and COMMIT on that connection would commit the outer transaction halfway.
  if ((db as Partial<Trx>).isTransaction) return (db as unknown as Trx).transaction(work);
  const client = db.client as Knex.Client;
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    return await within(db, connection, { count: 0 }, ['BEGIN', 'COMMIT', 'ROLLBACK'], work);
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * `work` between `begin` and `end` (or `undo` when it throws), on `connection`. `savepoints` counts the savepoints
 * of the transaction, so that nested and successive ones never share a name.
 */
async function within<T>(
  db: Db,
  connection: PgConnection,
  savepoints: { count: number },
  [begin, end, undo]: [string, string, string],
  work: (trx: Trx) => Promise<T>,
): Promise<T> {
  const send = (sql: string) => {
    db.client.emit('query', { sql, bindings: [] });
    return connection.query(sql);
  };
  await send(begin);
  let completed = false;
  // Every statement built on the transaction runs on its connection, and none once the transaction is over: the
  // connection knex is handed refuses them then, as knex's own transactions do.
  const own = refusingOnceOver(connection, () => completed);
  const trx = ((table: string) => db(table).connection(own)) as unknown as Trx;
  Object.assign(trx, {
    client: db.client,
    pgConnection: own,
    isTransaction: true,
    raw: (...args: Parameters<Knex.RawBuilder>) => (db.raw as (...a: unknown[]) => Knex.Raw)(...args).connection(own),
    ref: db.ref.bind(db),
    fn: db.fn,
    isCompleted: () => completed,
    transaction: <S>(inner: (savepoint: Trx) => Promise<S>) => {
      const name = `sp_${++savepoints.count}`;
      return within(
        db,
        connection,
        savepoints,
        [`SAVEPOINT ${name}`, `RELEASE SAVEPOINT ${name}`, `ROLLBACK TO SAVEPOINT ${name}`],
        inner,
      );
    },
  });
  let result: T;
  try {
    result = await work(trx);
  } catch (err) {
    completed = true;
    // A connection that failed is the pool's to discard; the error that matters is work's.
    await send(undo).catch(() => undefined);
    throw err;
  }
  completed = true;
  await send(end);
  return result;
}

/**
 * `connection` as the transaction's statements see it: its queries refused with knex's own message once `over()`,
 * whether sent with a callback (knex) or awaited (runPrepared); everything else is the connection's own.
 */
function refusingOnceOver(connection: PgConnection, over: () => boolean): PgConnection {
  return new Proxy(connection, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'query') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        if (!over()) return (target.query as (...a: unknown[]) => unknown)(...args);
        const refused = new Error('Transaction query already complete');
        const callback = args.find((a): a is (err: Error) => void => typeof a === 'function');
        if (!callback) return Promise.reject(refused);
        callback(refused);
        return undefined;
      };
    },
  });
}
