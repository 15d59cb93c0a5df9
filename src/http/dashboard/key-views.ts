import type { Key } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { actionButton, badge, dataTable, notice, when, type Viewer } from './views.js';

// The account keys page: metadata only (the API never returns a secret after creation), and the key row it shares
// with the agents page. Rotating and deactivating are admin actions: a member sees the buttons disabled, and the API
// refuses them if the form is forged.

/** One key with Rotate and Deactivate while it is active; `withPrefix` adds its prefix column. */
export const keyRow = (v: Viewer, k: Key, withPrefix: boolean) =>
  html`<tr>
    <td>
      ${k.name}
      <div class="muted">${k.id}</div>
    </td>
    ${withPrefix ? html`<td><code>${k.keyPrefix}</code></td>` : ''}
    <td>${k.scopes.join(', ')}</td>
    <td>${badge(k.status)}</td>
    <td>${when(k.lastUsedAt)}</td>
    <td>
      ${
        k.status === 'active'
          ? html`${actionButton(`/dashboard/keys/${k.id}/rotate`, 'Rotate', v.csrf, v.canAdmin)}
            ${actionButton(`/dashboard/keys/${k.id}/deactivate`, 'Deactivate', v.csrf, v.canAdmin)}`
          : ''
      }
    </td>
  </tr>`;

/** Why the key buttons are disabled, for a member. */
export const keysMemberNote = (v: Viewer) =>
  v.canAdmin ? html`` : html`<p class="muted">You are a member: managing keys needs an owner or admin.</p>`;

export function keysPage(v: Viewer, keys: Key[], note?: string | null): SafeHtml {
  return html`${notice(note)} ${keysMemberNote(v)}
  ${dataTable(
    ['Name', 'Prefix', 'Scopes', 'Status', 'Last used', ''],
    keys.map((k) => keyRow(v, k, true)),
    'No keys.',
  )}`;
}
