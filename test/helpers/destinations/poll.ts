import { client } from '../http.js';
import { waitFor } from '../wait.js';

// The poll destination as a driver for tests that run one behaviour over every destination kind: the fields its
// subscription is created with, then a consumer that polls (committing as it goes) until N deliveries arrived,
// each as the headers and raw body a POST of it would have carried.

/** One delivery as its consumer got it. */
export interface PolledDelivery {
  id: string;
  headers: Record<string, string>;
  /** The raw envelope JSON the signatures cover. */
  body: string;
}

export interface PollDestination {
  /** What POST /v1/webhooks takes for this kind, besides events. */
  readonly createFields: { kind: 'poll' };
  /** Starts consuming the subscription the create answer describes (its id and its pollCredential). */
  attach(created: { id: string; pollCredential: string }): void;
  /** Everything received so far, in log order. */
  readonly received: PolledDelivery[];
  /** Polls until at least `n` deliveries were received; answers them. */
  waitForDeliveries(n: number, timeoutMs?: number): Promise<PolledDelivery[]>;
  close(): Promise<void>;
}

export function createPollDestination(baseUrl: string): PollDestination {
  const api = client(baseUrl);
  const received: PolledDelivery[] = [];
  let subscription: { id: string; pollCredential: string } | undefined;
  let cursor: string | undefined;

  /** One poll after the last cursor; its deliveries are kept and its cursor committed. */
  const pollOnce = async () => {
    if (!subscription) throw new Error('poll destination: attach() the created subscription first');
    const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await api.get(`/v1/webhooks/${subscription.id}/poll?${query}`, { token: subscription.pollCredential });
    if (res.status !== 200) throw new Error(`poll answered ${res.status}: ${JSON.stringify(res.body)}`);
    received.push(...(res.body.data as PolledDelivery[]));
    cursor = res.body.nextCursor as string;
    const commit = await api.post(`/v1/webhooks/${subscription.id}/poll/commit`, {
      token: subscription.pollCredential,
      body: { cursor },
    });
    if (commit.status !== 200) throw new Error(`commit answered ${commit.status}: ${JSON.stringify(commit.body)}`);
    return received.length;
  };

  return {
    createFields: { kind: 'poll' },
    attach(created) {
      subscription = { id: created.id, pollCredential: created.pollCredential };
    },
    received,
    async waitForDeliveries(n, timeoutMs = 10_000) {
      await waitFor(pollOnce, (count) => count >= n, { timeoutMs, what: `${n} polled deliveries` });
      return received.slice();
    },
    // A consumer holds nothing open: nothing to close.
    close: async () => undefined,
  };
}
