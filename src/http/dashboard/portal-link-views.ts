import { EVENT_NAMES } from '../../events/event-types.js';
import type { ApiError } from './api-client.js';
import type { PortalLink } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import {
  actionButton,
  checkboxes,
  csrfField,
  dataTable,
  formError,
  notice,
  textField,
  when,
  type Viewer,
} from './views.js';

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
  return html`${notice(note)}
    <p class="muted">
      A portal link lets one of your customers manage the subscriptions you labelled with its tenant, and nothing else.
    </p>
    ${dataTable(['Tenant', 'Events', 'Expires', ''], rows, 'No portal links.')}
    <h2>New portal link</h2>
    ${formError(form.error, ['tenant', 'events', 'expiresInSeconds'])}
    <form method="post" action="/dashboard/portal-links">
      ${csrfField(v.csrf)} ${textField({ id: 'tenant', label: 'Tenant', value: form.tenant ?? '', error: form.error })}
      ${checkboxes({
        legend: 'Events it may subscribe to (none ticked: any)',
        name: 'events',
        values: EVENT_NAMES,
        chosen: form.events ?? [],
        error: form.error,
      })}
      ${textField({
        id: 'hours',
        label: 'Valid for (hours)',
        value: form.hours ?? '24',
        error: form.error,
        apiField: 'expiresInSeconds',
      })}
      <p><button type="submit">Create link</button></p>
    </form>`;
}

export const portalLinkCreatedPage = (url: string) =>
  html`<p>Send this link to your customer. It is shown this once; revoke it from the list if it leaks.</p>
    <p class="secret" data-portal-url>${url}</p>
    <p><a href="/dashboard/portal-links">Back to portal links</a></p>`;
