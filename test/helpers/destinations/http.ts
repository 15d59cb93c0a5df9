import { startReceiver, type Receiver } from '../receiver.js';
import { waitFor } from '../wait.js';
import type { Arrived, Destination, DestinationKindDriver } from './driver.js';

/** http: a real receiver on 127.0.0.1; refusing answers 503, and what it answered so is not a delivery. */
export function httpDriver(): DestinationKindDriver {
  const receivers: Receiver[] = [];
  return {
    kind: 'http',
    start: async () => undefined,
    async destination(): Promise<Destination> {
      let refusing = false;
      const delivered: Arrived[] = [];
      const r = await startReceiver((x) => {
        if (refusing) return { status: 503 };
        const headers = Object.fromEntries(Object.entries(x.headers).map(([k, v]) => [k, String(v)]));
        delivered.push({ headers, raw: x.raw, body: x.body, address: x.path, messageId: headers['webhook-id']! });
      });
      receivers.push(r);
      return {
        fields: { url: `${r.url}/hooks` },
        addressOf: () => '/hooks',
        arrived: () => delivered,
        waitFor: (n, timeoutMs = 20_000) =>
          waitFor(
            () => delivered,
            (d) => d.length >= n,
            { timeoutMs, what: `${n} deliveries at the http receiver` },
          ),
        refuse: async () => void (refusing = true),
        accept: async () => void (refusing = false),
        close: () => r.close(),
      };
    },
    secrets: () => [],
    stop: async () => {
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
}
