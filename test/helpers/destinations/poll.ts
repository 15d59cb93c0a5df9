import { client } from '../http.js';
import { waitFor } from '../wait.js';
import type { Arrived, Destination, DestinationKindDriver } from './driver.js';

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

/**
 * The poll kind in the shared behavioural table (test/integration/destination-kinds.test.ts): each destination is a
 * consumer of its own subscription; what arrived is what its polls returned. `baseUrl` is asked for once the
 * service runs.
 */
export function pollDriver(baseUrl: () => string): DestinationKindDriver {
  const credentials: string[] = [];
  return {
    kind: 'poll',
    pulled: true,
    start: async () => undefined,
    async destination(): Promise<Destination> {
      const consumer = createPollDestination(baseUrl());
      let path = '';
      const arrived: Arrived[] = [];
      const asArrived = (d: PolledDelivery): Arrived => {
        const headers = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v]));
        return { headers, raw: d.body, body: JSON.parse(d.body), address: path, messageId: headers['webhook-id']! };
      };
      return {
        fields: consumer.createFields,
        attach(created) {
          path = `/v1/webhooks/${created.id}/poll`;
          credentials.push(created.pollCredential);
          consumer.attach({ id: created.id, pollCredential: created.pollCredential });
        },
        addressOf: () => path,
        arrived: () => arrived,
        async waitFor(n, timeoutMs = 20_000) {
          const got = await consumer.waitForDeliveries(n, timeoutMs);
          arrived.splice(0, arrived.length, ...got.map(asArrived));
          return arrived;
        },
        refuse: () => Promise.reject(new Error('a poll destination cannot refuse: its consumer takes what it polls')),
        accept: async () => undefined,
        close: () => consumer.close(),
      };
    },
    // The subscriptions' own credentials: shown once at create, never again.
    secrets: () => credentials,
    stop: async () => undefined,
  };
}
