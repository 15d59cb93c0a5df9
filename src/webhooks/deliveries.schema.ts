import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { idString, jsonRecord, outText, textRecord, timestamp, uuidString } from '../platform/output.js';
import type { DeliveryRow } from '../delivery/sql/rows.js';
import type { AttemptRow, DeliveryWithEvent } from './deliveries.repository.js';
import { buildEnvelope } from '../delivery/envelope.js';

// How deliveries and attempts are shown by the API (REST and MCP).

export const toDeliveryResponse = (d: DeliveryRow) => ({
  id: d.id,
  webhookId: d.webhook_id,
  eventId: d.event_id,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: iso(d.next_attempt_at),
  lastError: d.last_error,
  lastResponseStatus: d.last_response_status,
  completedAt: iso(d.completed_at),
  createdAt: iso(d.created_at),
  updatedAt: iso(d.updated_at),
});

/** A delivery and the body every one of its attempts sends (the envelope the signature covers). */
export const toDeliveryWithEnvelopeResponse = (d: DeliveryWithEvent) => ({
  ...toDeliveryResponse(d),
  envelope: buildEnvelope(d),
});

export const toAttemptResponse = (a: AttemptRow) => ({
  id: a.id,
  deliveryId: a.delivery_id,
  webhookId: a.webhook_id,
  event: a.event,
  attemptNumber: a.attempt_number,
  status: a.status,
  url: a.url,
  responseStatus: a.response_status,
  responseBody: a.response_body,
  requestHeaders: a.request_headers,
  responseHeaders: a.response_headers,
  error: a.error,
  errorMessage: a.error_message,
  durationMs: a.duration_ms,
  createdAt: iso(a.created_at),
  nextAttemptAt: iso(a.next_attempt_at),
});

export const deliveryResponse = z
  .object({
    id: uuidString().describe('The envelope id, the same on every attempt'),
    webhookId: idString('wh'),
    eventId: idString('evt'),
    event: outText(),
    status: z.enum(['pending', 'succeeded', 'failed', 'exhausted']),
    attempts: z.number().int(),
    nextAttemptAt: timestamp()
      .nullable()
      .describe(
        'When a pending delivery is tried next (after each failure, the next WEBHOOK_RETRY_DELAYS_MS delay ±10 %); null once final, and while an ordered delivery waits behind its key',
      ),
    lastError: outText().nullable(),
    lastResponseStatus: z.number().int().nullable(),
    completedAt: timestamp().nullable(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .meta({ id: 'WebhookDelivery' });

// In the order buildEnvelope writes its keys, so the document reads as the body does.
const envelopeResponse = z
  .object({
    id: uuidString().describe('The delivery id'),
    event: outText(),
    timestamp: timestamp().describe("The event's time"),
    apiVersion: outText(),
    inboxId: outText().nullable(),
    messageId: outText().nullable(),
    payload: jsonRecord(),
  })
  .describe(
    'The request body of every attempt of this delivery, as sent: its JSON text is the exact body the signature covers',
  )
  .meta({ id: 'WebhookEnvelope' });

export const deliveryWithEnvelopeResponse = deliveryResponse
  .extend({ envelope: envelopeResponse })
  .meta({ id: 'WebhookDeliveryWithEnvelope' });

export const attemptResponse = z
  .object({
    id: idString('att'),
    deliveryId: uuidString(),
    webhookId: idString('wh'),
    event: outText(),
    attemptNumber: z.number().int(),
    status: z.enum(['succeeded', 'failed']),
    url: outText(),
    responseStatus: z.number().int().nullable(),
    responseBody: outText().nullable().describe("The first 4 KiB of the receiver's answer"),
    requestHeaders: textRecord().nullable().describe('The headers sent, signatures included (HMACs, never the secret)'),
    responseHeaders: textRecord()
      .nullable()
      .describe(
        "The receiver's headers: at most 50 and 4096 characters of names and values (the rest dropped, a " +
          '"[truncated]" entry says so), set-cookie shown as "[redacted]"; null when no answer came, and for a stream ' +
          'destination',
      ),
    error: outText()
      .nullable()
      .describe(
        'timeout, connection_refused, dns_failed, blocked_address, http_status, redirect, tls or invalid_url; for a broker destination also auth_failed, unroutable (no queue or stream took it), nack (the broker refused it) or connection_lost (the connection went before the broker confirmed: it may have taken it)',
      ),
    errorMessage: outText().nullable(),
    durationMs: z.number().int(),
    createdAt: timestamp(),
    nextAttemptAt: timestamp().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
