import { EVENT_NAMES } from '../../events/event-types.js';
import type { ApiError } from './api-client.js';
import type { Attempt, Delivery, Webhook, WebhookStats } from './api-types.js';
import { html, trusted, type SafeHtml } from './html.js';
import { actionButton, badge, csrfField, fieldError, formError, notice, when, type Viewer } from './views.js';

// The subscriptions pages: the list with its create form, one subscription with its health and deliveries, one
// delivery with its attempts, and the page that shows a new signing secret once.

export interface CreateForm {
  url?: string;
  events?: string[];
  rateLimitPerSecond?: string;
  tenant?: string;
  error?: ApiError | null;
}

export function webhooksPage(v: Viewer, hooks: Webhook[], form: CreateForm = {}): SafeHtml {
  const rows = hooks.map(
    (w) =>
      html`<tr>
        <td>
          <a href="/dashboard/webhooks/${w.id}">${w.url}</a>
          <div class="muted">${w.id}</div>
        </td>
        <td>${w.events.join(', ')}</td>
        <td>${badge(w.status)}</td>
        <td>${w.rateLimitPerSecond ?? 'unthrottled'}</td>
        <td>${w.tenant ?? '—'}</td>
      </tr>`,
  );
  const chosen = new Set(form.events ?? []);
  return html`<table>
      <thead>
        <tr>
          <th>URL</th>
          <th>Events</th>
          <th>Status</th>
          <th>Throttle (/s)</th>
          <th>Tenant</th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="5" class="muted">No subscriptions yet.</td>
              </tr>`
        }
      </tbody>
    </table>
    <h2>New subscription</h2>
    ${formError(form.error, ['url', 'events', 'rateLimitPerSecond', 'tenant'])}
    <form method="post" action="/dashboard/webhooks">
      ${csrfField(v.csrf)} <label for="url">URL</label
      ><input id="url" name="url" type="text" value="${form.url ?? ''}" placeholder="https://example.com/hooks" />
      ${fieldError(form.error, 'url')}
      <fieldset>
        <legend>Events</legend>
        ${EVENT_NAMES.map(
          (e) =>
            html`<label
              ><input type="checkbox" name="events" value="${e}" ${chosen.has(e) ? ' checked' : ''} /> ${e}</label
            >`,
        )}
      </fieldset>
      ${fieldError(form.error, 'events')}
      <label for="rate">Throttle, deliveries per second (empty: none)</label>
      <input id="rate" name="rateLimitPerSecond" type="text" value="${form.rateLimitPerSecond ?? ''}" />
      ${fieldError(form.error, 'rateLimitPerSecond')}
      <label for="tenant">Tenant (optional: the customer a portal link may hand this subscription to)</label>
      <input id="tenant" name="tenant" type="text" value="${form.tenant ?? ''}" />
      ${fieldError(form.error, 'tenant')}
      <p><button type="submit">Create subscription</button></p>
    </form>`;
}

/** A new signing secret, shown once; `back` is the subscription's page. */
export function secretPage(back: string, secret: string, what: string): SafeHtml {
  return html`<p>${what} Copy the signing secret now: it is shown this once and cannot be read again.</p>
    <p class="secret" data-secret>${secret}</p>
    <p><a href="${back}">Back to the subscription</a></p>`;
}

export interface DetailData {
  webhook: Webhook;
  stats: WebhookStats;
  chart: string;
  deliveries: Delivery[];
  filter: { status?: string; event?: string };
  notice?: string | null;
  enableError?: ApiError | null;
}

const pct = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
const ms = (n: number | null) => (n === null ? '—' : `${n} ms`);

export function webhookPage(v: Viewer, d: DetailData): SafeHtml {
  const w = d.webhook;
  const base = `/dashboard/webhooks/${w.id}`;
  const s = d.stats;
  const enable =
    w.status === 'disabled'
      ? html`<h2>Re-enable</h2>
          ${formError(d.enableError, ['recoverSince'])}
          <form method="post" action="${base}/enable">
            ${csrfField(v.csrf)}
            <label for="recoverSince"
              >Recover since… (optional, UTC: deliveries that failed since then are queued again)</label
            >
            <input id="recoverSince" name="recoverSince" type="text" placeholder="2026-11-24T08:00:00Z" />
            ${fieldError(d.enableError, 'recoverSince')}
            <p><button type="submit">Enable</button></p>
          </form>`
      : html``;
  const statuses = ['', 'pending', 'succeeded', 'failed', 'exhausted'];
  const events = ['', ...w.events, 'webhook.test'];
  const rows = d.deliveries.map(
    (x) =>
      html`<tr>
        <td><a href="${base}/deliveries/${x.id}">${x.id}</a></td>
        <td>${x.event}</td>
        <td>${badge(x.status)}</td>
        <td>${x.attempts}</td>
        <td>${x.lastResponseStatus ?? x.lastError ?? '—'}</td>
        <td>${when(x.createdAt)}</td>
      </tr>`,
  );
  return html`${notice(d.notice)}
    <table>
      <tbody>
        <tr>
          <th>URL</th>
          <td>${w.url}</td>
        </tr>
        <tr>
          <th>Events</th>
          <td>${w.events.join(', ')}</td>
        </tr>
        <tr>
          <th>Status</th>
          <td>
            ${badge(w.status)}${w.disabledReason ? html` <span class="muted">${w.disabledReason} at ${when(w.disabledAt)}</span>` : ''}
          </td>
        </tr>
        <tr>
          <th>Throttle</th>
          <td>${w.rateLimitPerSecond ? `${w.rateLimitPerSecond} per second` : 'unthrottled'}</td>
        </tr>
        <tr>
          <th>Tenant</th>
          <td>${w.tenant ?? '—'}</td>
        </tr>
        <tr>
          <th>Id</th>
          <td><code>${w.id}</code></td>
        </tr>
      </tbody>
    </table>
    <div>
      ${actionButton(`${base}/test`, 'Send a test event', v.csrf)}${actionButton(`${base}/rotate-secret`, 'Rotate secret', v.csrf)}
      ${w.status === 'active' ? actionButton(`${base}/disable`, 'Disable', v.csrf) : ''}
    </div>
    ${enable}
    <h2>Health, last 24 hours</h2>
    <div class="grid">
      <div class="stat">Success rate<b data-stat="successRate">${pct(s.successRate)}</b></div>
      <div class="stat">Attempts<b data-stat="attempts">${s.attempts}</b></div>
      <div class="stat">p50 latency<b>${ms(s.durationMs.p50)}</b></div>
      <div class="stat">p95 latency<b>${ms(s.durationMs.p95)}</b></div>
    </div>
    <p><img alt="Attempts per 5-minute bucket" src="${trusted(d.chart)}" /></p>
    <h2>Recent deliveries</h2>
    <form method="get" action="${base}">
      <label for="fstatus">Status</label
      ><select id="fstatus" name="status">
        ${statuses.map(
          (o) => html`<option value="${o}" ${d.filter.status === o ? ' selected' : ''}>${o || 'any'}</option>`,
        )}
      </select>
      <label for="fevent">Event</label
      ><select id="fevent" name="event">
        ${events.map(
          (o) => html`<option value="${o}" ${d.filter.event === o ? ' selected' : ''}>${o || 'any'}</option>`,
        )}
      </select>
      <button type="submit" class="secondary">Filter</button>
    </form>
    <table>
      <thead>
        <tr>
          <th>Delivery</th>
          <th>Event</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Last answer</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="6" class="muted">No deliveries match.</td>
              </tr>`
        }
      </tbody>
    </table>`;
}

/** One delivery's attempts; `base` is the page of its subscription (in the dashboard or a portal). */
export function deliveryPage(
  v: Viewer,
  base: string,
  deliveryId: string,
  attempts: Attempt[],
  note?: string | null,
): SafeHtml {
  const items = attempts.map(
    (a) =>
      html`<section data-attempt="${a.attemptNumber}">
        <h2>Attempt ${a.attemptNumber}: ${badge(a.status)}</h2>
        <table>
          <tbody>
            <tr>
              <th>Request</th>
              <td>
                POST <code>${a.url}</code>
                <span class="muted"
                  >(event ${a.event}; the signed envelope with headers X-Switchboard-Signature and
                  webhook-id/timestamp/signature)</span
                >
              </td>
            </tr>
            <tr>
              <th>Response status</th>
              <td data-response-status>${a.responseStatus ?? '—'}</td>
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
    ${actionButton(`${base}/deliveries/${deliveryId}/redeliver`, 'Redeliver', v.csrf)}
    ${items.length ? items : html`<p class="muted">No attempt yet.</p>`}`;
}
