import { requireScope } from '../../auth/access.js';
import { addDomain, getDomain, listDomainsFor, removeDomain, verifyDomain } from '../../domains/domains.service.js';
import { domainInput, domainResponse } from '../../domains/domains.schema.js';
import type { Deps } from '../../app/deps.js';
import { pageOf } from '../../platform/output.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const tag = 'Domains';

export function registerDomainRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/domains',
    requireScope('read:domains'),
    {
      operationId: 'listDomains',
      summary: 'List sending domains',
      tag,
      query: pageQuery,
      response: pageOf(domainResponse),
    },
    async (ctx) => {
      ctx.body = await listDomainsFor(deps, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
    },
  );

  api.post(
    '/v1/domains',
    requireScope('write:domains'),
    {
      operationId: 'addDomain',
      summary: 'Add a sending domain',
      tag,
      body: domainInput,
      response: domainResponse,
      status: 201,
      errors: ['conflict'],
      examples: { request: { name: 'mail.example.com' } },
    },
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await addDomain(deps, callerOf(ctx), ctx.request.body);
    },
    idempotent(),
  );

  api.get(
    '/v1/domains/:domainId',
    requireScope('read:domains'),
    { operationId: 'getDomain', summary: 'Get a sending domain', tag, response: domainResponse },
    async (ctx) => {
      ctx.body = await getDomain(deps, principalOf(ctx).accountId, ctx.params.domainId!);
    },
  );

  api.delete(
    '/v1/domains/:domainId',
    requireScope('write:domains'),
    { operationId: 'removeDomain', summary: 'Remove a sending domain', tag, response: null },
    async (ctx) => {
      await removeDomain(deps, callerOf(ctx), ctx.params.domainId!);
      ctx.status = 204;
    },
  );

  api.post(
    '/v1/domains/:domainId/verify',
    requireScope('write:domains'),
    { operationId: 'verifyDomain', summary: 'Check the DNS records now', tag, response: domainResponse },
    async (ctx) => {
      ctx.body = await verifyDomain(deps, callerOf(ctx), ctx.params.domainId!);
    },
  );
}
