import { requireScope } from '../../auth/access.js';
import { contactInput, contactPatch, contactResponse } from '../../contacts/contacts.schema.js';
import { pageOf } from '../../platform/output.js';
import { createContact, getContact, listContacts, updateContact } from '../../contacts/contacts.service.js';
import type { Deps } from '../../app/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const tag = 'Contacts';

export function registerContactRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/contacts',
    requireScope('read:contacts'),
    { operationId: 'listContacts', summary: 'List contacts', tag, query: pageQuery, response: pageOf(contactResponse) },
    async (ctx) => {
      ctx.body = await listContacts(deps, principalOf(ctx), parseInput(pageQuery, ctx.query));
    },
  );

  api.post(
    '/v1/contacts',
    requireScope('write:contacts'),
    {
      operationId: 'createContact',
      summary: 'Create a contact',
      tag,
      body: contactInput,
      response: contactResponse,
      status: 201,
      errors: ['not_found', 'conflict'],
      examples: { request: { name: 'Grace', email: 'grace@example.com', metadata: { plan: 'pro' } } },
    },
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await createContact(deps, callerOf(ctx), parseInput(contactInput, ctx.request.body));
    },
    idempotent(),
  );

  api.get(
    '/v1/contacts/:contactId',
    requireScope('read:contacts'),
    { operationId: 'getContact', summary: 'Get a contact', tag, response: contactResponse },
    async (ctx) => {
      ctx.body = await getContact(deps, principalOf(ctx), ctx.params.contactId!);
    },
  );

  api.patch(
    '/v1/contacts/:contactId',
    requireScope('write:contacts'),
    {
      operationId: 'updateContact',
      summary: 'Update a contact',
      tag,
      body: contactPatch,
      response: contactResponse,
      errors: ['conflict'],
      examples: { request: { phone: '+14155550123', metadata: { plan: 'enterprise' } } },
    },
    async (ctx) => {
      ctx.body = await updateContact(
        deps,
        callerOf(ctx),
        ctx.params.contactId!,
        parseInput(contactPatch, ctx.request.body),
      );
    },
  );
}
