import type { UserRow } from '../accounts/accounts.schema.js';
import { findAccount } from '../accounts/accounts.repository.js';
import { findAgent } from '../agents/agents.repository.js';
import type { Deps } from '../app/deps.js';
import { defaultScopesOf, mayGrant, parseResource, scopesOf } from './resources.js';
import type { Resource } from '../auth/principal.js';

// What the consent page may offer a person for one authorization request: never more than the resource's scope
// namespace, and only what their role may grant. The same rules judge the submitted form, so a hand-made POST
// cannot widen what the page offered.

export interface ConsentRequest {
  resource: Resource;
  /** For a per-agent resource: the agent, which must be in the person's account. */
  agentName: string | null;
  offered: string[];
  preselected: string[];
  /** Set when nothing can be granted; the page then shows it and only a Deny button. */
  refusal: string | null;
}

export async function judgeConsentRequest(
  deps: Pick<Deps, 'db'>,
  publicUrl: string,
  user: UserRow,
  params: { resource?: unknown; scope?: unknown },
): Promise<ConsentRequest | { invalid: string }> {
  if (typeof params.resource !== 'string')
    return { invalid: 'The client must name exactly one MCP endpoint as its resource.' };
  const resource = parseResource(publicUrl, params.resource);
  if (!resource) return { invalid: 'The resource is not an MCP endpoint of this server.' };

  const namespace = scopesOf(resource);
  const requested =
    typeof params.scope === 'string' ? params.scope.split(' ').filter((s) => namespace.includes(s)) : [];
  // A client that asks for none of the resource's scopes is offered all of them; the person picks.
  const offered = requested.length ? [...new Set(requested)] : [...namespace];
  const preselected = offered.filter((s) => defaultScopesOf(resource).includes(s));

  let agentName: string | null = null;
  let refusal: string | null = null;
  if (resource.kind === 'agent') {
    const agent = await findAgent(deps.db, user.account_id, resource.agentId);
    if (agent) agentName = agent.name;
    else refusal = 'This agent is not in your account.';
  }
  const account = await findAccount(deps.db, user.account_id);
  if (!mayGrant(user.role, resource, account?.agent_key_minting ?? 'admins')) {
    refusal =
      resource.kind === 'account'
        ? 'Only owners and admins can give a client access to the whole account. Ask one of them, ' +
          'or connect the client to one agent’s MCP endpoint instead.'
        : 'This account lets only owners and admins give a client access to an agent ' +
          '(its agentKeyMinting policy is admins). Ask one of them.';
  }
  return { resource, agentName, offered, preselected, refusal };
}

/** The scopes a submitted consent form grants, or a reason to refuse it. */
export function judgeConsentChoice(
  request: ConsentRequest,
  chosen: string[],
): { scopes: string[] } | { invalid: string } {
  if (request.refusal) return { invalid: request.refusal };
  const scopes = [...new Set(chosen)];
  if (scopes.length === 0) return { invalid: 'Choose at least one permission, or deny.' };
  if (scopes.some((s) => !request.offered.includes(s))) return { invalid: 'A chosen permission was not offered.' };
  return { scopes };
}
