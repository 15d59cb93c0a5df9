import type { Key } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { actionButton, badge, when, type Viewer } from './views.js';

// The account keys page: metadata only (the API never returns a secret after creation). Deactivating is an admin
// action: a member sees the button disabled, and the API refuses it if the form is forged.

export function keysPage(v: Viewer, keys: Key[], note?: string | null): SafeHtml {
  const rows = keys.map(
    (k) =>
      html`<tr>
        <td>
          ${k.name}
          <div class="muted">${k.id}</div>
        </td>
        <td><code>${k.keyPrefix}</code></td>
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
      </tr>`,
  );
  return html`${note ? html`<p class="notice" role="status">${note}</p>` : ''}
    ${v.canAdmin ? '' : html`<p class="muted">You are a member: managing keys needs an owner or admin.</p>`}
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Prefix</th>
          <th>Scopes</th>
          <th>Status</th>
          <th>Last used</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="6" class="muted">No keys.</td>
              </tr>`
        }
      </tbody>
    </table>`;
}
