// The one way a test waits: poll a condition until it holds, and fail with what was awaited when it never does.
// A fixed sleep is either too short on a loaded machine or wasted time; to prove something did NOT happen, wait
// for a later sentinel instead.

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the timeout error: "timed out waiting for <what>". */
  what?: string;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value, and answers that value (or throws after timeoutMs). */
export async function waitUntil<T>(
  check: () => Promise<T> | T,
  timeoutMs = 30_000,
  what = 'condition',
  intervalMs = 25,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(intervalMs);
  }
}

/** Polls `read` until `done` accepts its value, and answers that value; the timeout error shows the last one. */
export async function waitFor<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 50, what = 'condition' }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)?.slice(0, 300)}`);
    }
    await pause(intervalMs);
  }
}
