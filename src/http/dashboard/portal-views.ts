import { EVENT_NAMES } from '../../events/event-types.js';
import type { ApiError } from './api-client.js';
import type { Delivery, Webhook } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { deliveriesTable } from './delivery-views.js';
import { schemeSelect, signingSummary } from './webhook-views.js';
import { destinationText, isBrokerKind } from './destination-view.js';
import {
  actionButton,
  badge,
  checkboxes,
  csrfField,
  dataTable,
  formError,
  notice,
  textField,
  type Viewer,
} from './views.js';

// The portal's pages: what an account's customer sees through a portal link. Only the link's tenant's
// subscriptions, only the actions the portal API offers.

export interface PortalForm {
  url?: string;
  events?: string[];
  signatureScheme?: string;
  error?: ApiError | null;
}

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
        <td><a href="${base}/webhooks/${w.id}">${destinationText(w)}</a></td>
        <td>${w.kind}</td>
        <td>${w.events.join(', ')}</td>
        <td>${badge(w.status)}</td>
      </tr>`,
  );
  return html`${notice(note)} ${dataTable(['Endpoint', 'Kind', 'Events', 'Status'], rows, 'No endpoints yet.')}
    <h2>Add an endpoint</h2>
    ${formError(form.error, ['url', 'events', 'signatureScheme'])}
    <form method="post" action="${base}/webhooks">
      ${csrfField(v.csrf)} ${textField({ id: 'url', label: 'URL', value: form.url ?? '', error: form.error })}
      ${checkboxes({
        legend: 'Events',
        name: 'events',
        values: offered ?? EVENT_NAMES,
        chosen: form.events ?? [],
        error: form.error,
      })}
      ${schemeSelect(form.signatureScheme)}
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
  return html`${notice(note)}
    <p><a href="${base}">← All endpoints</a></p>
    <p>Status: ${badge(w.status)} · kind: ${w.kind} · events: ${w.events.join(', ')}</p>
    <p>Signing: ${signingSummary(w)}</p>
    ${w.filter ? html`<p>Filter: <code data-field="filter">${JSON.stringify(w.filter)}</code></p>` : ''}
    ${
      isBrokerKind(w)
        ? html`<p>Destination: ${w.kind} ${destinationText(w)} (changed through the API)</p>`
        : w.kind === 'http'
          ? html`${formError(form.error, ['url'])}
              <form method="post" action="${self}">
                ${csrfField(v.csrf)}
                ${textField({ id: 'url', label: 'URL', value: form.url ?? w.url, error: form.error })}
                <p><button type="submit">Save URL</button></p>
              </form>`
          : html`<p>Polled at <code>${w.url}</code>: it has no URL to change.</p>`
    }
    ${actionButton(`${self}/rotate-secret`, 'Rotate secret', v.csrf)}
    <h2>Recent deliveries</h2>
    ${deliveriesTable(self, deliveries, { lastAnswer: false, empty: 'No deliveries yet.' })}`;
}
