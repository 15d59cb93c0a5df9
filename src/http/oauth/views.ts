import { MONEY_SPENDING_SCOPES, type Scope } from '../../auth/scopes.js';
import type { ConsentRequest } from '../../oauth/consent.js';
import { escapeHtml as h } from './pages.js';

// The markup of the sign-in and consent forms. Every outside value goes through h().

const SCOPE_TEXT: Record<string, string> = {
  'agent:config:read': 'Read this agent’s configuration',
  'agent:conversations:read': 'Read this agent’s conversations',
  'agent:activity:read': 'Read this agent’s activity',
  'agent:config:write': 'Change this agent’s configuration',
  'agent:trigger': 'Send this agent chat messages (spends credits)',
  'read:agents': 'List and read agents',
  'write:agents': 'Create, update and pause agents',
  'read:contacts': 'Read contacts',
  'write:contacts': 'Create and update contacts',
  'read:messages': 'Read conversations and messages',
  'write:messages': 'Create drafts',
  'messages:send': 'Send real email and SMS (spends credits)',
  'read:inboxes': 'Read inboxes',
  'write:inboxes': 'Manage inboxes',
  'read:webhooks': 'List webhooks',
  'write:webhooks': 'Create and delete webhooks',
  'integrations:read': 'Read integrations',
  'integrations:manage': 'Connect and disconnect integrations',
  'read:domains': 'Read sending domains',
  'write:domains': 'Manage sending domains',
  'read:billing': 'Read the credit balance and usage',
  'read:account': 'Read account stats, logs and feed',
  'read:activity': 'Read activity timelines',
  'trigger:agents': 'Fire any agent (spends credits)',
  'read:api_keys': 'List API key metadata',
};

export interface ClientView {
  name: string | null;
  id: string;
  redirectUri: string;
}

const clientLine = (c: ClientView) =>
  `<p><strong>${h(c.name ?? 'An unnamed client')}</strong> <span class="muted">(client <code>${h(c.id.slice(0, 120))}</code>)</span>
wants to connect to Switchboard. After you decide, you will be sent to <code>${h(redirectTarget(c.redirectUri))}</code>.</p>`;

/** Where the browser goes next, shown so a person can spot a look-alike client: scheme, host and path. */
function redirectTarget(uri: string): string {
  const url = URL.parse(uri);
  return url ? `${url.protocol}//${url.host}${url.pathname}` : uri;
}

export function loginView(client: ClientView, action: string, csrf: string, error?: string): string {
  return `${clientLine(client)}
<p>Sign in with your Switchboard account to continue.</p>
${error ? `<p class="error" role="alert">${h(error)}</p>` : ''}
<form method="post" action="${h(action)}">
<input type="hidden" name="csrf" value="${h(csrf)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<div class="row"><button class="allow" type="submit">Sign in</button></div>
</form>`;
}

export function consentView(
  client: ClientView,
  email: string,
  req: ConsentRequest,
  action: string,
  csrf: string,
  error?: string,
): string {
  const where =
    req.resource.kind === 'agent'
      ? `the agent <strong>${h(req.agentName ?? req.resource.agentId)}</strong> <span class="muted">(<code>${h(req.resource.agentId)}</code>)</span> and nothing else`
      : '<strong>your whole account</strong>, as an account API key would';
  const boxes = req.offered
    .map((s) => {
      const money = MONEY_SPENDING_SCOPES.includes(s as Scope) ? ' <span class="muted">(money)</span>' : '';
      const checked = req.preselected.includes(s) ? ' checked' : '';
      return `<label><input type="checkbox" name="scope" value="${h(s)}"${checked}> ${h(SCOPE_TEXT[s] ?? s)} <code>${h(s)}</code>${money}</label>`;
    })
    .join('\n');
  const allow = req.refusal ? '' : '<button class="allow" type="submit" name="decision" value="allow">Allow</button>';
  return `${clientLine(client)}
<p>Signed in as <strong>${h(email)}</strong>. The client would reach ${where}.</p>
${req.refusal ? `<p class="error" role="alert">${h(req.refusal)}</p>` : ''}
${error ? `<p class="error" role="alert">${h(error)}</p>` : ''}
<form method="post" action="${h(action)}">
<input type="hidden" name="csrf" value="${h(csrf)}">
${req.refusal ? '' : `<fieldset><legend>Allow it to</legend>\n${boxes}\n</fieldset>`}
<p class="muted">Access lasts until an admin revokes it (GET/DELETE /v1/oauth/grants) or it expires; write and money permissions are off unless you tick them.</p>
<div class="row">${allow}<button class="deny" type="submit" name="decision" value="deny">Deny</button></div>
</form>`;
}
