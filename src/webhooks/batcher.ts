// Coalesces calls made by concurrent jobs in the same tick into one call with many items. Every round trip to
// Postgres or Redis is a syscall on each side; with 50+ deliveries in flight, one statement for all of them
// instead of one each is most of the worker's throughput. Each caller still waits for its own result, so
// nothing is acknowledged before it is durable.

export type Batched<I, O> = (item: I) => Promise<O>;

export function createBatcher<I, O>(run: (items: I[]) => Promise<O[]>, maxBatch = 200): Batched<I, O> {
  let pending: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    while (pending.length) {
      const batch = pending.slice(0, maxBatch);
      pending = pending.slice(maxBatch);
      run(batch.map((b) => b.item)).then(
        (results) => batch.forEach((b, i) => b.resolve(results[i] as O)),
        (err: unknown) => batch.forEach((b) => b.reject(err)),
      );
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // setImmediate: after the current I/O callbacks, so jobs woken by the same poll join one batch.
        setImmediate(flush);
      }
    });
}

/** One set of batchers per owner object (the deps' db), created on first use. */
export function perOwner<K extends object, V>(make: (owner: K) => V): (owner: K) => V {
  const cache = new WeakMap<K, V>();
  return (owner) => {
    let v = cache.get(owner);
    if (!v) {
      v = make(owner);
      cache.set(owner, v);
    }
    return v;
  };
}
