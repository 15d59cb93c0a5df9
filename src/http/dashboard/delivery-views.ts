import type { Attempt, Delivery, DeliveryWithEnvelope } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { actionButton, badge, dataTable, notice, when, type Viewer } from './views.js';

// A subscription's deliveries and one delivery's attempts, as the dashboard and the portal both show them. `base`
// is the subscription's page (/dashboard/webhooks/:id or /portal/:token/webhooks/:id): the links and Redeliver
// lead back under it.

/** The notices of a delivery's page, after its Redeliver button. */
export const DELIVERY_NOTICES: Record<string, string> = {
  redelivered: 'Queued again with the same envelope id: a new attempt will appear below.',
};

export interface DeliveriesTable {
  /** The last response status or error of each delivery: the dashboard shows it, the portal does not. */
  lastAnswer: boolean;
  empty: string;
}

export function deliveriesTable(base: string, deliveries: Delivery[], t: DeliveriesTable): SafeHtml {
  const rows = deliveries.map(
    (x) =>
      html`<tr>
        <td><a href="${base}/deliveries/${x.id}">${x.id}</a></td>
        <td>${x.event}</td>
        <td>${badge(x.status)}</td>
        <td>${x.attempts}</td>
        <td>${nextAttempt(x)}</td>
        ${t.lastAnswer ? html`<td>${x.lastResponseStatus ?? x.lastError ?? '—'}</td>` : ''}
        <td>${when(x.createdAt)}</td>
      </tr>`,
  );
  const headers = [
    'Delivery',
    'Event',
    'Status',
    'Attempts',
    'Next attempt',
    ...(t.lastAnswer ? ['Last answer'] : []),
    'Created',
  ];
  return dataTable(headers, rows, t.empty);
}

/**
 * When a pending delivery is tried next (docs/webhook-retries.md#retries-exhaustion-and-disabling); a pending one
 * without a time waits behind its ordering key, and a final one has none.
 */
const nextAttempt = (d: Delivery): string =>
  d.status !== 'pending' ? '—' : d.nextAttemptAt ? when(d.nextAttemptAt) : 'after the one ahead of it';

/** A recorded header set, one `name: value` a line by name (jsonb keeps no order); `absent` when none. */
function headerList(headers: Record<string, string> | null, absent: string): SafeHtml {
  if (!headers) return html`<span class="muted">${absent}</span>`;
  const names = Object.keys(headers).sort();
  return html`<pre>${names.map((name) => `${name}: ${headers[name]}`).join('\n')}</pre>`;
}

/**
 * One delivery: the request body its attempts send (one envelope, so shown once), then its attempts, first to last;
 * `base` is the page of its subscription (in the dashboard or a portal).
 */
export function deliveryPage(
  v: Viewer,
  base: string,
  delivery: DeliveryWithEnvelope,
  attempts: Attempt[],
  note?: string | null,
): SafeHtml {
  const deliveryId = delivery.id;
  const items = [...attempts]
    .sort((a, b) => a.attemptNumber - b.attemptNumber)
    .map(
      (a) =>
        html`<section data-attempt="${a.attemptNumber}">
          <h2>Attempt ${a.attemptNumber}: ${badge(a.status)}</h2>
          <table>
            <tbody>
              <tr>
                <th>Request</th>
                <td>
                  POST <code>${a.url}</code>
                  <span class="muted">(event ${a.event}; the request body above)</span>
                </td>
              </tr>
              <tr>
                <th>Request headers</th>
                <td data-request-headers>${headerList(a.requestHeaders, 'Not recorded.')}</td>
              </tr>
              <tr>
                <th>Response status</th>
                <td data-response-status>${a.responseStatus ?? '—'}</td>
              </tr>
              <tr>
                <th>Response headers</th>
                <td data-response-headers>
                  ${headerList(a.responseHeaders, 'Not recorded: no answer came, or a stream destination.')}
                </td>
              </tr>
              <tr>
                <th>Error</th>
                <td>${a.error ? html`<code>${a.error}</code> ${a.errorMessage ?? ''}` : '—'}</td>
              </tr>
              <tr>
                <th>Duration</th>
                <td>${a.durationMs} ms</td>
              </tr>
              <tr>
                <th>At</th>
                <td>${when(a.createdAt)}</td>
              </tr>
            </tbody>
          </table>
          <p class="muted">Response body (the first 4 KiB, as stored)</p>
          <pre>${a.responseBody ?? ''}</pre>
        </section>`,
    );
  return html`${notice(note)}
    <p><a href="${base}">← Subscription</a> · delivery <code>${deliveryId}</code></p>
    <p data-next-attempt>
      ${badge(delivery.status)} · ${delivery.attempts} attempts
      ${delivery.status === 'pending' ? html` · next attempt: ${nextAttempt(delivery)}` : ''}
    </p>
    ${actionButton(`${base}/deliveries/${deliveryId}/redeliver`, 'Redeliver', v.csrf)}
    <section data-envelope>
      <h2>Request body (the signed envelope, the same for every attempt)</h2>
      <pre>${JSON.stringify(delivery.envelope, null, 2)}</pre>
    </section>
    ${items.length ? items : html`<p class="muted">No attempt yet.</p>`}`;
}
