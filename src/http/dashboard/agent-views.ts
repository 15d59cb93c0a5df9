import { AGENT_SCOPES, DEFAULT_AGENT_SCOPES } from '../../auth/scopes.js';
import type { ApiError } from './api-client.js';
import type { Agent, Grant, Key } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { keyRow, keysMemberNote } from './key-views.js';
import {
  actionButton,
  badge,
  checkboxes,
  csrfField,
  dataTable,
  formError,
  notice,
  submitButton,
  textField,
  when,
  type Viewer,
} from './views.js';

// Agents with their per-agent keys (create with scopes, rotate, deactivate), and the account's OAuth grants
// (revoke). Minting, rotating, deactivating and revoking are admin actions: a member sees them disabled.

export interface AgentKeyForm {
  agentId?: string;
  name?: string;
  scopes?: string[];
  error?: ApiError | null;
}

function mintForm(v: Viewer, agent: Agent, form: AgentKeyForm): SafeHtml {
  const mine = form.agentId === agent.id;
  const chosen = new Set(mine && form.scopes ? form.scopes : DEFAULT_AGENT_SCOPES);
  const error = mine ? form.error : null;
  return html`<form method="post" action="/dashboard/agents/${agent.id}/keys">
    ${csrfField(v.csrf)} ${formError(error, ['name', 'scopes'])}
    ${textField({ id: `name-${agent.id}`, name: 'name', label: "New key's name", value: mine ? (form.name ?? '') : '', error })}
    ${checkboxes({ legend: 'Scopes', name: 'scopes', values: AGENT_SCOPES, chosen, error })}
    <p>${submitButton('Create key', v.canAdmin)}</p>
  </form>`;
}

export function agentsPage(v: Viewer, agents: Agent[], keys: Key[], form: AgentKeyForm = {}, note?: string | null) {
  const sections = agents.map((a) => {
    const own = keys.filter((k) => k.keyType === 'agent' && k.agentId === a.id);
    return html`<section data-agent="${a.id}">
      <h2>${a.name} ${badge(a.status)}</h2>
      <p class="muted">${a.id}</p>
      ${dataTable(
        ['Key', 'Scopes', 'Status', 'Last used', ''],
        own.map((k) => keyRow(v, k, false)),
        'No keys.',
      )}
      ${mintForm(v, a, form)}
    </section>`;
  });
  return html`${notice(note)} ${keysMemberNote(v)} ${sections.length ? sections : html`<p class="muted">No agents.</p>`}`;
}

export const keySecretPage = (what: string, secret: string, back: string) =>
  html`<p>${what} Copy the key now: it is shown this once and cannot be read again.</p>
    <p class="secret" data-secret>${secret}</p>
    <p><a href="${back}">Back</a></p>`;

export function grantsPage(v: Viewer, grants: Grant[] | null, note?: string | null): SafeHtml {
  if (!grants)
    return html`<p class="muted">You are a member: OAuth grants are listed and revoked by an owner or admin.</p>`;
  const rows = grants.map(
    (g) =>
      html`<tr>
        <td>
          ${g.clientName ?? 'an unnamed client'}
          <div class="muted">${g.clientId}</div>
        </td>
        <td>${g.agentId ?? 'the whole account'}</td>
        <td>${g.scopes.join(', ')}</td>
        <td>${when(g.lastUsedAt)}</td>
        <td>${when(g.expiresAt)}</td>
        <td>${actionButton(`/dashboard/grants/${g.id}/revoke`, 'Revoke', v.csrf, v.canAdmin)}</td>
      </tr>`,
  );
  return html`${notice(note)}
  ${dataTable(['Client', 'Reaches', 'Scopes', 'Last used', 'Expires', ''], rows, 'No OAuth grants.')}`;
}
