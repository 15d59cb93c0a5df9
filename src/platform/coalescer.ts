// Many concurrent callers, one round trip. Calls made in the same event-loop turn are handed to `run` together
// (flushed from setImmediate, after the turn's I/O callbacks, so jobs or requests woken by one poll share a
// batch); each caller still waits for its own result, so nothing is acknowledged before it is done. With
// `windowMs`, calls of the next few milliseconds join the batch too (flushed at once when `flushAt` are pending: a
// full batch, unless the caller names fewer): at a steady rate most turns hold one call, and a batch of one per call
// is no batching (docs/performance.md). With `idleSkipsWindow`, only calls that come close together wait.
// With `inFlight`, at most that many batches are outstanding: calls made meanwhile wait for one to return and go
// together, so batches grow with the load (as a database's group commit does) and an idle moment costs no wait.
//
// Failure isolation: when a batch of several items fails, its items are run again one by one, so one bad item
// (a value the database refuses) fails alone instead of rejecting every other tenant's call in the batch. An
// error that says the backend itself is away is not retried item by item: every item would fail the same way.

export interface CoalescerOptions {
  /** Items per call of `run`. */
  maxBatch?: number;
  /** How long the first call of a batch waits for others (ms); 0 or absent: until the end of the turn. */
  windowMs?: number;
  /** With a window, the calls pending that close it early: enough for what a batch is for (default maxBatch). */
  flushAt?: number;
  /**
   * With a window: a call that comes more than windowMs after the call before it goes at the end of its turn, as
   * without a window. At such a rate nothing is likely to join it, and waiting would only delay it.
   */
  idleSkipsWindow?: boolean;
  /**
   * Batches outstanding at once; calls made while that many are out go in the next, when one returns. A failed
   * batch's one-by-one re-run is not counted: it must not hold back the calls of other tenants behind it.
   */
  inFlight?: number;
  /** True when an error means every item would fail (e.g. the connection is down): skip the one-by-one re-run. */
  failsAll?: (err: unknown) => boolean;
}

export type Coalesced<I, O> = (item: I) => Promise<O>;

interface Waiter<I, O> {
  item: I;
  resolve(o: O): void;
  reject(e: unknown): void;
}

export function createCoalescer<I, O>(run: (items: I[]) => Promise<O[]>, opts: CoalescerOptions = {}): Coalesced<I, O> {
  const maxBatch = opts.maxBatch ?? 200;
  const windowMs = opts.windowMs ?? 0;
  const flushAt = opts.flushAt ?? maxBatch;
  const maxInFlight = opts.inFlight ?? Infinity;
  let timer: NodeJS.Timeout | undefined;
  const failsAll = opts.failsAll ?? (() => false);
  let pending: Array<Waiter<I, O>> = [];
  let inFlight = 0;
  let lastCallAt = -Infinity;

  // A `run` that throws synchronously fails its batch like one that rejects.
  const call = (items: I[]) => Promise.resolve().then(() => run(items));
  const runAlone = (w: Waiter<I, O>) => call([w.item]).then((results) => w.resolve(results[0] as O), w.reject);

  const runBatch = (batch: Array<Waiter<I, O>>) =>
    call(batch.map((w) => w.item)).then(
      (results) => batch.forEach((w, i) => w.resolve(results[i] as O)),
      (err: unknown) => {
        if (batch.length === 1 || failsAll(err)) batch.forEach((w) => w.reject(err));
        else batch.forEach(runAlone);
      },
    );

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    // Calls left pending go when a batch in flight returns.
    while (pending.length > 0 && inFlight < maxInFlight) {
      const batch = pending.slice(0, maxBatch);
      pending = pending.slice(batch.length);
      inFlight += 1;
      void runBatch(batch).finally(() => {
        inFlight -= 1;
        if (pending.length > 0 && !timer) flush();
      });
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      const now = performance.now();
      const idle = opts.idleSkipsWindow === true && now - lastCallAt > windowMs;
      lastCallAt = now;
      if (pending.length === 0 && inFlight < maxInFlight) {
        if (windowMs > 0 && !idle) timer = setTimeout(flush, windowMs);
        else setImmediate(flush);
      }
      pending.push({ item, resolve, reject });
      if (windowMs > 0 && pending.length >= flushAt) flush();
    });
}
