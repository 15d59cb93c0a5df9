// The driver of one destination kind for the shared behavioural table (test/integration/destination-kinds.test.ts):
// what a subscription of the kind is created with, what arrived at the destination, and a way to make the
// destination refuse and accept again. A driver is all a new kind needs to run the whole table.

/** One message as the destination got it: header names lower-case, the body as its raw text and parsed. */
export interface Arrived {
  headers: Record<string, string>;
  raw: string;
  body: any;
  /** Where it arrived: the HTTP path, the AMQP routing key or the NATS subject. */
  address: string;
  /** The message id the transport set (AMQP messageId, Nats-Msg-Id); the webhook-id header for http. */
  messageId: string;
}

/** One fresh destination of the kind: a receiver, a bound queue, a stream. */
export interface Destination {
  /** The fields of POST /v1/webhooks besides `events`. */
  fields: Record<string, unknown>;
  /** Told the create answer of its subscription, for a kind whose consumer needs it (a poll: id, credential). */
  attach?(created: Record<string, any>): void;
  /** What `address` every message of `event` arrives at. */
  addressOf(event: string): string;
  /** Everything that arrived, in arrival order. */
  arrived(): Arrived[];
  /** Resolves with arrived() once it holds at least `n` messages. */
  waitFor(n: number, timeoutMs?: number): Promise<Arrived[]>;
  /** The destination refuses from now on: each attempt is a failed one, until `accept`. */
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
}

export interface DestinationKindDriver {
  kind: string;
  /**
   * A pulled kind (poll): its consumer takes the deliveries, so nothing is refused, retried or disabled, and it is
   * read in order without an ordering key; `refuse`/`accept` are never called, and the table's rows about those
   * do not apply to it.
   */
  pulled?: boolean;
  /** Starts what the kind needs (a broker of its own). */
  start(): Promise<void>;
  destination(): Promise<Destination>;
  /** What must never be shown, logged or recorded (a broker password). */
  secrets(): string[];
  stop(): Promise<void>;
}
