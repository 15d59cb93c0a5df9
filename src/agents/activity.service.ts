import type { Principal } from '../auth/principal.js';
import { assertAccountWide, assertAgentReach } from './agent-reach.js';
import { findAgent } from './agents.repository.js';
import type { Deps } from '../app/deps.js';
import { notFound } from '../platform/errors.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { listActivity as listRows, toActivityResponse } from '../activity/activity.repository.js';

/** The account-wide timeline (optionally one agent's), newest first. */
export async function listActivity(
  deps: Deps,
  principal: Principal,
  page: PageQuery,
  filter: { agentId?: string } = {},
) {
  assertAccountWide(principal);
  return mapPage(await listRows(deps.db, principal.accountId, filter, page), toActivityResponse);
}

/** One agent's timeline: messages, drafts, sends, runs and their outcomes, configuration changes. */
export async function listAgentActivity(deps: Deps, principal: Principal, agentId: string, page: PageQuery) {
  assertAgentReach(principal, agentId);
  if (!(await findAgent(deps.db, principal.accountId, agentId))) throw notFound('Agent');
  return mapPage(await listRows(deps.db, principal.accountId, { agentId }, page), toActivityResponse);
}
