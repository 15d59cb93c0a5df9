import type { Caller, Principal } from '../auth/principal.js';
import { assertAccountWide, assertAgentReach } from '../agents/agent-reach.js';
import { findAgent } from '../agents/agents.repository.js';
import type { Emit } from '../events/emit.js';
import { transactWithEvents } from '../events/emit.js';
import type { Deps } from '../app/deps.js';
import type { Trx } from '../platform/transaction.js';
import { AppError, notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { isUniqueViolation } from '../platform/pg-errors.js';
import * as repo from './contacts.repository.js';
import { toContactResponse, type ContactInput, type ContactPatch, type ContactRow } from './contacts.schema.js';

const addressTaken = () => new AppError('conflict', 'Another contact of this account already has this email or phone');

export async function listContacts(deps: Deps, principal: Principal, page: PageQuery) {
  assertAccountWide(principal);
  return mapPage(await repo.listContacts(deps.db, principal.accountId, {}, page), toContactResponse);
}

/** Contacts linked to the agent or that conversed with it. */
export async function listAgentContacts(deps: Deps, principal: Principal, agentId: string, page: PageQuery) {
  assertAgentReach(principal, agentId);
  if (!(await findAgent(deps.db, principal.accountId, agentId))) throw notFound('Agent');
  return mapPage(await repo.listContacts(deps.db, principal.accountId, { agentId }, page), toContactResponse);
}

export async function getContact(deps: Deps, principal: Principal, contactId: string) {
  assertAccountWide(principal);
  const contact = await repo.findContact(deps.db, principal.accountId, contactId);
  if (!contact) throw notFound('Contact');
  return toContactResponse(contact);
}

export async function createContact(deps: Deps, caller: Caller, input: ContactInput) {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  try {
    const contact = await transactWithEvents(deps, accountId, async (trx, emit) => {
      if (input.agentId && !(await findAgent(trx, accountId, input.agentId))) throw notFound('Agent');
      const row = await repo.insertContact(trx, accountId, {
        id: newId('ct'),
        agentId: input.agentId ?? null,
        name: input.name ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        metadata: input.metadata ?? {},
      });
      await emit({ type: 'contact.created', payload: toContactResponse(row) });
      return row;
    });
    return toContactResponse(contact);
  } catch (err) {
    if (isUniqueViolation(err)) throw addressTaken();
    throw err;
  }
}

export async function updateContact(deps: Deps, caller: Caller, contactId: string, patch: ContactPatch) {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  try {
    const contact = await transactWithEvents(deps, accountId, async (trx, emit) => {
      const current = await repo.findContact(trx, accountId, contactId);
      if (!current) throw notFound('Contact');
      const email = patch.email === undefined ? current.email : patch.email;
      const phone = patch.phone === undefined ? current.phone : patch.phone;
      if (email === null && phone === null) {
        throw new AppError('validation_error', 'Invalid request: a contact needs an email or a phone', {
          fields: [{ field: 'email', message: 'a contact needs an email or a phone' }],
        });
      }
      const row = (await repo.updateContact(trx, accountId, contactId, patch))!;
      await emit({ type: 'contact.updated', payload: toContactResponse(row) });
      return row;
    });
    return toContactResponse(contact);
  } catch (err) {
    if (isUniqueViolation(err)) throw addressTaken();
    throw err;
  }
}

/**
 * The contact behind an address (inbound sender or draft recipient), created if new (emitting contact.created).
 * The insert runs in a savepoint so a concurrent creator of the same address makes us read theirs instead.
 */
export async function linkOrCreateContact(
  trx: Trx,
  emit: Emit,
  accountId: string,
  who: { agentId: string; channel: 'email' | 'sms'; address: string },
): Promise<ContactRow> {
  const by = who.channel === 'email' ? { email: who.address } : { phone: who.address };
  const existing = await repo.findContactByAddress(trx, accountId, by);
  if (existing) return existing;
  try {
    const row = await trx.transaction((sp) =>
      repo.insertContact(sp, accountId, {
        id: newId('ct'),
        agentId: who.agentId,
        name: null,
        email: null,
        phone: null,
        metadata: {},
        ...by,
      }),
    );
    await emit({ type: 'contact.created', payload: toContactResponse(row) });
    return row;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return (await repo.findContactByAddress(trx, accountId, by))!;
  }
}
