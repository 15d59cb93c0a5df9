import { requireScope } from '../../auth/access.js';
import {
  connectIntegration,
  disconnectIntegration,
  listIntegrations,
  parseProvider,
} from '../../integrations/integrations.service.js';
import { integrationResponse, smsHttpInput, smtpInput } from '../../integrations/integrations.schema.js';
import type { Deps } from '../../app/deps.js';
import { pageOf } from '../../platform/output.js';
import { z } from 'zod';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

const tag = 'Integrations';

export function registerIntegrationRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/integrations',
    requireScope('integrations:read'),
    {
      operationId: 'listIntegrations',
      summary: 'List integrations (every provider, connected or not)',
      tag,
      response: pageOf(integrationResponse),
    },
    async (ctx) => {
      ctx.body = { data: await listIntegrations(deps, principalOf(ctx).accountId), hasMore: false, nextCursor: null };
    },
  );

  api.post(
    '/v1/integrations/:provider',
    requireScope('integrations:manage'),
    {
      operationId: 'connectIntegration',
      summary: 'Connect (or reconfigure) an integration',
      tag,
      body: z.union([smtpInput(), smsHttpInput()]),
      response: integrationResponse,
      status: [200, 201],
      description:
        'The body is the `smtp` settings for /integrations/smtp and the `sms-http` settings for /integrations/sms-http. 201 when newly connected, 200 when reconfigured. Secrets are sealed and never returned.',
      examples: {
        request: {
          host: 'smtp.example.com',
          port: 587,
          username: 'mailer',
          password: '<PASSWORD>',
          from: 'Acme <support@example.com>',
        },
      },
    },
    async (ctx) => {
      const provider = parseProvider(ctx.params.provider!);
      const { integration, created } = await connectIntegration(deps, callerOf(ctx), provider, ctx.request.body);
      ctx.status = created ? 201 : 200;
      ctx.body = integration;
    },
  );

  api.delete(
    '/v1/integrations/:provider',
    requireScope('integrations:manage'),
    { operationId: 'disconnectIntegration', summary: 'Disconnect an integration', tag, response: null },
    async (ctx) => {
      const provider = parseProvider(ctx.params.provider!);
      await disconnectIntegration(deps, callerOf(ctx), provider);
      ctx.status = 204;
    },
  );
}
