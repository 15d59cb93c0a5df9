import type { SafeResponse } from '../platform/http-client.js';

// The transport seam: how one signed request reaches its destination. An attempt builds the request (envelope and
// signature headers), hands it to the transport of its subscription's kind and records what came back; signing,
// retries, recording, throttling, stats and ordering know nothing of which transport ran. A new destination kind
// is a new Transport here and nothing else.

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
  /** A broker destination's target, as its row holds it (null for http and stream). */
  broker: BrokerTarget | null;
  headers: Record<string, string>;
  body: string;
}

/** Where on a broker a delivery goes: the sealed URL (credentials included) and the exchange and key, or subject. */
export interface BrokerTarget {
  urlSealed: string;
  exchange: string | null;
  routingKey: string | null;
  subject: string | null;
}

/** Why a broker did not take a message: its own words go in the message. */
export type BrokerErrorCode =
  'timeout' | 'connection_refused' | 'dns_failed' | 'blocked_address' | 'tls' | 'auth_failed' | 'unroutable' | 'nack';

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
export type Outcome = Answer | { busy: true; waitMs: number };

export interface Transport {
  send(request: DeliveryRequest): Promise<Outcome>;
  /** Ends what the transport holds open (connections, subscriptions): the end of the runtime. */
  close(): Promise<void>;
}

/** A subscription's kind of destination, as its row names it. */
export type DestinationKind = 'http' | 'stream' | 'rabbitmq' | 'nats';

export type Transports = Record<DestinationKind, Transport>;

export const isBusy = (o: Outcome): o is { busy: true; waitMs: number } => 'busy' in o;
