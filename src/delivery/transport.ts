import type { SafeResponse } from '../platform/http-client.js';

// The transport seam: how one signed request reaches its destination. An attempt builds the request (envelope and
// signature headers), hands it to the transport of its subscription's kind and records what came back; signing,
// retries, recording, throttling, stats and ordering know nothing of which transport ran. A destination kind
// declares its transport in its module (src/delivery/kinds): the attempt passes what the row holds for it,
// its sealed URL and its settings, and only the kind's transport reads them.
//
// A kind is pushed (its transport sends each attempt) or pulled (its consumer takes its deliveries: a poll,
// docs/adr/0089-poll-destinations.md). A pulled kind's delivery has no due time: the fan-out writes it waiting,
// so no job is made for it, and its transport parks any that some path made due. It stays pending until a poll
// returns it, which records it delivered.

/** One attempt's request, signed: what every transport sends, each in its own way. */
export interface DeliveryRequest {
  accountId: string;
  webhookId: string;
  deliveryId: string;
  event: string;
  /** The attempt's number (1 for the first). */
  attempt: number;
  /** The subscription's URL (an http destination's target; a broker's without its password). */
  url: string;
  /** What the row holds for the kind's transport: its sealed URL and its settings. */
  target: Target;
  headers: Record<string, string>;
  body: string;
}

/**
 * Where a delivery goes, as its subscription's row holds it: the sealed URL (credentials included; null for a kind
 * whose URL is public) and the kind's own settings (its fields, by their API names), read by its transport alone.
 */
export interface Target {
  urlSealed: string | null;
  settings: Record<string, unknown>;
}

/**
 * Why a broker did not take a message: its own words go in the message. `nack` is only ever the broker's refusal;
 * `connection_lost` is a connection or channel gone while the publish awaited its confirm, when the broker may
 * well have taken the message (the retry may then be a duplicate, as at-least-once delivery allows).
 */
export type BrokerErrorCode =
  | 'timeout'
  | 'connection_refused'
  | 'connection_lost'
  | 'dns_failed'
  | 'blocked_address'
  | 'tls'
  | 'auth_failed'
  | 'unroutable'
  | 'nack';

/** A broker's answer: no HTTP status or headers; its confirm (or publish ack) is the success. */
export type BrokerAnswer =
  | { ok: true; status?: undefined; headers?: undefined; body: string; durationMs: number }
  | {
      ok: false;
      error: BrokerErrorCode;
      status?: undefined;
      headers?: undefined;
      body?: string;
      durationMs: number;
      message: string;
    };

/** What a destination answered, whatever its kind: what the attempt records and the retry policy reads. */
export type Answer = SafeResponse | BrokerAnswer;

/**
 * What a send came to: the destination's answer, or why there was none (a SafeResponse, texts storable as they
 * are; `headers` only where the destination has headers of its own to record), or that the destination takes no
 * more right now: the delivery waits `waitMs` as a throttled one does, no attempt made.
 */
export type Outcome = Answer | { busy: true; waitMs: number } | Pulled;

/** A pulled destination's answer to any send: the delivery waits for its consumer, no attempt made. */
export interface Pulled {
  pulled: true;
}

export interface Transport {
  send(request: DeliveryRequest): Promise<Outcome>;
  /** Ends what the transport holds open (connections, subscriptions): the end of the runtime. */
  close(): Promise<void>;
}

/** One transport per destination kind, by the kind's name. */
export type Transports = Record<string, Transport>;

export const isBusy = (o: Outcome): o is { busy: true; waitMs: number } => 'busy' in o;
export const isPulled = (o: Outcome): o is Pulled => 'pulled' in o;
