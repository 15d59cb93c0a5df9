import { EVENT_NAMES } from '../../events/event-types.js';
import type { ApiError } from './api-client.js';
import type { Delivery, Webhook } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { actionButton, badge, csrfField, fieldError, formError, notice, when, type Viewer } from './views.js';

// The portal's pages: what an account's customer sees through a portal link. Only the link's tenant's
// subscriptions, only the actions the portal API offers.

export interface PortalForm {
  url?: string;
  events?: string[];
  error?: ApiError | null;
}

const eventBoxes = (offered: string[], chosen: Set<string>) =>
  html`<fieldset>
    <legend>Events</legend>
    ${offered.map(
      (e) =>
        html`<label
          ><input type="checkbox" name="events" value="${e}" ${chosen.has(e) ? ' checked' : ''} /> ${e}</label
        >`,
    )}
  </fieldset>`;

export function portalListPage(
  v: Viewer,
  base: string,
  offered: string[] | null,
  hooks: Webhook[],
  form: PortalForm = {},
  note?: string | null,
): SafeHtml {
  const rows = hooks.map(
    (w) =>
      html`<tr>
        <td><a href="${base}/webhooks/${w.id}">${w.url}</a></td>
        <td>${w.events.join(', ')}</td>
        <td>${badge(w.status)}</td>
      </tr>`,
  );
  return html`${notice(note)}
    <table>
      <thead>
        <tr>
          <th>Endpoint</th>
          <th>Events</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="3" class="muted">No endpoints yet.</td>
              </tr>`
        }
      </tbody>
    </table>
    <h2>Add an endpoint</h2>
    ${formError(form.error, ['url', 'events'])}
    <form method="post" action="${base}/webhooks">
      ${csrfField(v.csrf)}
      <label for="url">URL</label><input id="url" name="url" type="text" value="${form.url ?? ''}" />
      ${fieldError(form.error, 'url')} ${eventBoxes(offered ?? EVENT_NAMES, new Set(form.events ?? []))}
      ${fieldError(form.error, 'events')}
      <p><button type="submit">Add endpoint</button></p>
    </form>`;
}

export function portalWebhookPage(
  v: Viewer,
  base: string,
  w: Webhook,
  deliveries: Delivery[],
  form: PortalForm = {},
  note?: string | null,
): SafeHtml {
  const self = `${base}/webhooks/${w.id}`;
  const rows = deliveries.map(
    (x) =>
      html`<tr>
        <td><a href="${self}/deliveries/${x.id}">${x.id}</a></td>
        <td>${x.event}</td>
        <td>${badge(x.status)}</td>
        <td>${x.attempts}</td>
        <td>${when(x.createdAt)}</td>
      </tr>`,
  );
  return html`${notice(note)}
    <p><a href="${base}">← All endpoints</a></p>
    <p>Status: ${badge(w.status)} · events: ${w.events.join(', ')}</p>
    ${formError(form.error, ['url'])}
    <form method="post" action="${self}">
      ${csrfField(v.csrf)}
      <label for="url">URL</label><input id="url" name="url" type="text" value="${form.url ?? w.url}" />
      ${fieldError(form.error, 'url')}
      <p><button type="submit">Save URL</button></p>
    </form>
    ${actionButton(`${self}/rotate-secret`, 'Rotate secret', v.csrf)}
    <h2>Recent deliveries</h2>
    <table>
      <thead>
        <tr>
          <th>Delivery</th>
          <th>Event</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="5" class="muted">No deliveries yet.</td>
              </tr>`
        }
      </tbody>
    </table>`;
}
