import { z } from 'zod';
import type { Caller, Principal } from '../auth/principal.js';
import { recordActivity } from '../activity/activity.repository.js';
import { assertAccountWide } from '../agents/agent-reach.js';
import { findAgent } from '../agents/agents.repository.js';
import { transactWithEvents } from '../events/emit.js';
import { sha256Hex } from '../platform/crypto.js';
import type { Deps } from '../app/deps.js';
import { notFound } from '../platform/errors.js';
import { newId, randomBase62 } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { parseInput } from '../platform/validation.js';
import * as repo from './inboxes.repository.js';
import { addressFor, toInboxResponse, type InboxInput, type InboxPatch } from './inboxes.schema.js';
import { transaction } from '../platform/transaction.js';

/** The ingest token's recognisable prefix; only its SHA-256 is stored. */
export const INGEST_TOKEN_PREFIX = 'sb_ingest_';

export async function listInboxes(
  deps: Deps,
  principal: Principal,
  page: PageQuery,
  filter: { agentId?: string } = {},
) {
  assertAccountWide(principal);
  return mapPage(await repo.listInboxes(deps.db, principal.accountId, filter, page), toInboxResponse);
}

export async function getInbox(deps: Deps, principal: Principal, inboxId: string) {
  assertAccountWide(principal);
  const inbox = await repo.findInbox(deps.db, principal.accountId, inboxId);
  if (!inbox) throw notFound('Inbox');
  return toInboxResponse(inbox);
}

/** Creates an inbox for an agent; the ingest token is returned here and never again. */
export async function createInbox(deps: Deps, caller: Caller, input: InboxInput) {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  const ingestToken = INGEST_TOKEN_PREFIX + randomBase62(40);
  const inbox = await transactWithEvents(deps, accountId, async (trx, emit) => {
    if (!(await findAgent(trx, accountId, input.agentId))) throw notFound('Agent');
    const row = await repo.insertInbox(trx, accountId, {
      id: newId('inb'),
      agentId: input.agentId,
      channel: input.channel,
      address: input.address,
      name: input.name ?? null,
      tokenHash: sha256Hex(ingestToken),
    });
    await emit({ type: 'inbox.created', inboxId: row.id, payload: toInboxResponse(row) });
    await recordActivity(trx, accountId, {
      agentId: row.agent_id,
      kind: 'inbox.created',
      subjectType: 'inbox',
      subjectId: row.id,
      summary: `${row.channel} inbox ${row.address} created`,
    });
    return row;
  });
  return { ...toInboxResponse(inbox), ingestToken };
}

export async function updateInbox(deps: Deps, caller: Caller, inboxId: string, patch: InboxPatch) {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  // No event: inbox.updated is planned, not yet produced (interface, Events).
  const inbox = await transaction(deps.db, async (trx) => {
    const current = await repo.findInbox(trx, accountId, inboxId);
    if (!current) throw notFound('Inbox');
    const address =
      patch.address === undefined
        ? undefined
        : parseInput(z.object({ address: addressFor(current.channel) }), { address: patch.address }).address;
    const row = await repo.updateInbox(trx, accountId, inboxId, { name: patch.name, address });
    if (!row) throw notFound('Inbox');
    return row;
  });
  return toInboxResponse(inbox);
}

/** Soft delete: the inbox stops receiving and sending; its messages keep their history. A second delete is 404. */
export async function deleteInbox(deps: Deps, caller: Caller, inboxId: string): Promise<void> {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  await transactWithEvents(deps, accountId, async (trx, emit) => {
    const row = await repo.softDeleteInbox(trx, accountId, inboxId);
    if (!row) throw notFound('Inbox');
    await emit({ type: 'inbox.deleted', inboxId: row.id, payload: toInboxResponse(row) });
    await recordActivity(trx, accountId, {
      agentId: row.agent_id,
      kind: 'inbox.deleted',
      subjectType: 'inbox',
      subjectId: row.id,
      summary: `${row.channel} inbox ${row.address} deleted`,
    });
  });
}
