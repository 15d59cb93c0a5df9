import { iso } from '../platform/clock.js';
import type { AttemptRow, DeliveryRow } from './deliveries.repository.js';

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
  error: a.error,
  errorMessage: a.error_message,
  durationMs: a.duration_ms,
  createdAt: iso(a.created_at),
  nextAttemptAt: iso(a.next_attempt_at),
});
