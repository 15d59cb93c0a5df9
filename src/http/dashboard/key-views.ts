import type { Key, KeyUsage } from './api-types.js';
import { html, trusted, type SafeHtml } from './html.js';
import { actionButton, badge, dataTable, notice, when, type Viewer } from './views.js';

// The account keys page: metadata only (the API never returns a secret after creation), and the key row it shares
// with the agents page. Rotating and deactivating are admin actions: a member sees the buttons disabled, and the API
// refuses them if the form is forged.

/** One key with Rotate and Deactivate while it is active; `withPrefix` adds its prefix column. */
export const keyRow = (v: Viewer, k: Key, withPrefix: boolean) =>
  html`<tr>
    <td>
      <a href="/dashboard/keys/${k.id}">${k.name}</a>
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

const cap = (k: Key) =>
  k.spendCapCredits === null
    ? 'none'
    : `${k.remainingCredits} of ${k.spendCapCredits} credits left${k.spendCapInterval ? `, refills ${k.spendCapInterval} (next ${when(k.nextRefillAt)})` : ''}`;

/** One key: its metadata, its limits and its requests per hour over the last day. */
export function keyPage(v: Viewer, k: Key, usage: KeyUsage, chart: string): SafeHtml {
  const t = usage.totals;
  const refused = Object.values(t).reduce((a, b) => a + b, 0) - t.valid;
  return html`${keysMemberNote(v)}
    <table>
      <tr>
        <th>Id</th>
        <td><code>${k.id}</code></td>
      </tr>
      <tr>
        <th>Type</th>
        <td>${k.keyType}${k.agentId ? html` (agent <code>${k.agentId}</code>)` : ''}</td>
      </tr>
      <tr>
        <th>Status</th>
        <td>${badge(k.status)}</td>
      </tr>
      <tr>
        <th>Scopes</th>
        <td>${k.scopes.join(', ')}</td>
      </tr>
      <tr>
        <th>Spend cap</th>
        <td data-field="spendCap">${cap(k)}</td>
      </tr>
      <tr>
        <th>Rate limits</th>
        <td>
          ${k.rateLimits.length ? k.rateLimits.map((l) => `${l.name}: ${l.limit} per ${l.durationMs} ms`).join('; ') : 'none'}
        </td>
      </tr>
      <tr>
        <th>Last used</th>
        <td>${when(k.lastUsedAt)}</td>
      </tr>
    </table>
    <h2>Requests, last 24 hours</h2>
    <div class="grid">
      <div class="stat">Valid<b data-stat="valid">${t.valid}</b></div>
      <div class="stat">Refused<b data-stat="refused">${refused}</b></div>
      <div class="stat">Rate limited<b data-stat="rate_limited">${t.rate_limited}</b></div>
      <div class="stat">Over spend cap<b data-stat="spend_cap_exceeded">${t.spend_cap_exceeded}</b></div>
    </div>
    <p><img class="chart" alt="Requests per hour" src="${trusted(chart)}" /></p>`;
}
