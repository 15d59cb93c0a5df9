import { AGENT_SCOPES, DEFAULT_AGENT_SCOPES } from '../../auth/scopes.js';
import type { ApiError } from './api-client.js';
import type { Agent, Grant, Key } from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { actionButton, badge, csrfField, fieldError, formError, notice, when, type Viewer } from './views.js';

// Agents with their per-agent keys (create with scopes, rotate, deactivate), and the account's OAuth grants
// (revoke). Minting, rotating, deactivating and revoking are admin actions: a member sees them disabled.

export interface AgentKeyForm {
  agentId?: string;
  name?: string;
  scopes?: string[];
  error?: ApiError | null;
}

const keyRow = (v: Viewer, k: Key) =>
  html`<tr>
    <td>
      ${k.name}
      <div class="muted">${k.id}</div>
    </td>
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

function mintForm(v: Viewer, agent: Agent, form: AgentKeyForm): SafeHtml {
  const mine = form.agentId === agent.id;
  const chosen = new Set(mine && form.scopes ? form.scopes : DEFAULT_AGENT_SCOPES);
  const error = mine ? form.error : null;
  return html`<form method="post" action="/dashboard/agents/${agent.id}/keys">
    ${csrfField(v.csrf)} ${formError(error, ['name', 'scopes'])}
    <label for="name-${agent.id}">New key's name</label>
    <input id="name-${agent.id}" name="name" type="text" value="${mine ? (form.name ?? '') : ''}" />
    ${fieldError(error, 'name')}
    <fieldset>
      <legend>Scopes</legend>
      ${AGENT_SCOPES.map(
        (s) =>
          html`<label
            ><input type="checkbox" name="scopes" value="${s}" ${chosen.has(s) ? ' checked' : ''} /> ${s}</label
          >`,
      )}
    </fieldset>
    ${fieldError(error, 'scopes')}
    <p>
      <button type="submit" ${v.canAdmin ? '' : html` disabled title="Your role does not allow this"`}>
        Create key
      </button>
    </p>
  </form>`;
}

export function agentsPage(v: Viewer, agents: Agent[], keys: Key[], form: AgentKeyForm = {}, note?: string | null) {
  const sections = agents.map((a) => {
    const own = keys.filter((k) => k.keyType === 'agent' && k.agentId === a.id);
    return html`<section data-agent="${a.id}">
      <h2>${a.name} ${badge(a.status)}</h2>
      <p class="muted">${a.id}</p>
      <table>
        <thead>
          <tr>
            <th>Key</th>
            <th>Scopes</th>
            <th>Status</th>
            <th>Last used</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${
            own.length
              ? own.map((k) => keyRow(v, k))
              : html`<tr>
                  <td colspan="5" class="muted">No keys.</td>
                </tr>`
          }
        </tbody>
      </table>
      ${mintForm(v, a, form)}
    </section>`;
  });
  return html`${notice(note)}
  ${v.canAdmin ? '' : html`<p class="muted">You are a member: managing keys needs an owner or admin.</p>`}
  ${sections.length ? sections : html`<p class="muted">No agents.</p>`}`;
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
    <table>
      <thead>
        <tr>
          <th>Client</th>
          <th>Reaches</th>
          <th>Scopes</th>
          <th>Last used</th>
          <th>Expires</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="6" class="muted">No OAuth grants.</td>
              </tr>`
        }
      </tbody>
    </table>`;
}
