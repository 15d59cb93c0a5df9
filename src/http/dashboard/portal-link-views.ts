import { EVENT_NAMES } from '../../events/event-types.js';
import type { ApiError } from './api-client.js';
import type { PortalLink } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { actionButton, csrfField, fieldError, formError, notice, when, type Viewer } from './views.js';

// The account's portal links: the list (never a token), a form to create one, Revoke; and the page that shows a
// new link once.

export interface PortalLinkForm {
  tenant?: string;
  events?: string[];
  hours?: string;
  error?: ApiError | null;
}

export function portalLinksPage(
  v: Viewer,
  links: PortalLink[],
  form: PortalLinkForm = {},
  note?: string | null,
): SafeHtml {
  const rows = links.map(
    (l) =>
      html`<tr>
        <td>
          ${l.tenant}
          <div class="muted">${l.id}</div>
        </td>
        <td>${l.events ? l.events.join(', ') : 'any'}</td>
        <td>${when(l.expiresAt)}</td>
        <td>
          ${l.revokedAt ? html`revoked ${when(l.revokedAt)}` : actionButton(`/dashboard/portal-links/${l.id}/revoke`, 'Revoke', v.csrf)}
        </td>
      </tr>`,
  );
  const chosen = new Set(form.events ?? []);
  return html`${notice(note)}
    <p class="muted">
      A portal link lets one of your customers manage the subscriptions you labelled with its tenant, and nothing else.
    </p>
    <table>
      <thead>
        <tr>
          <th>Tenant</th>
          <th>Events</th>
          <th>Expires</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="4" class="muted">No portal links.</td>
              </tr>`
        }
      </tbody>
    </table>
    <h2>New portal link</h2>
    ${formError(form.error, ['tenant', 'events', 'expiresInSeconds'])}
    <form method="post" action="/dashboard/portal-links">
      ${csrfField(v.csrf)}
      <label for="tenant">Tenant</label><input id="tenant" name="tenant" type="text" value="${form.tenant ?? ''}" />
      ${fieldError(form.error, 'tenant')}
      <fieldset>
        <legend>Events it may subscribe to (none ticked: any)</legend>
        ${EVENT_NAMES.map(
          (e) =>
            html`<label
              ><input type="checkbox" name="events" value="${e}" ${chosen.has(e) ? ' checked' : ''} /> ${e}</label
            >`,
        )}
      </fieldset>
      ${fieldError(form.error, 'events')}
      <label for="hours">Valid for (hours)</label
      ><input id="hours" name="hours" type="text" value="${form.hours ?? '24'}" />
      ${fieldError(form.error, 'expiresInSeconds')}
      <p><button type="submit">Create link</button></p>
    </form>`;
}

export const portalLinkCreatedPage = (url: string) =>
  html`<p>Send this link to your customer. It is shown this once; revoke it from the list if it leaks.</p>
    <p class="secret" data-portal-url>${url}</p>
    <p><a href="/dashboard/portal-links">Back to portal links</a></p>`;
