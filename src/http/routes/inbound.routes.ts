import { publicAccess } from '../../auth/access.js';
import { receiveInbound } from '../../messages/inbound.service.js';
import { inboundInput, messageResponse } from '../../messages/messages.schema.js';
import type { Deps } from '../../app/deps.js';
import type { ApiRouter } from '../router.js';

// Public by design: the inbox's own ingest token (X-Inbound-Token) is the credential, checked by the service.
export function registerInboundRoutes(api: ApiRouter, deps: Deps) {
  api.post(
    '/v1/inbound/:inboxId',
    publicAccess,
    {
      operationId: 'receiveInboundMessage',
      summary: 'Receive an inbound message',
      tag: 'Inboxes',
      body: inboundInput,
      response: messageResponse,
      status: 201,
      description: "Authenticated by the inbox's ingest token in X-Inbound-Token, not by a bearer credential.",
      security: [{ inboundToken: [] }],
      headers: {
        'X-Inbound-Token': {
          description: "The inbox's ingest token, shown once when the inbox was created",
          required: true,
        },
      },
      errors: ['invalid_credential', 'inbox_deleted'],
      examples: { request: { from: 'grace@example.com', subject: 'Order 1042', text: 'Where is my order?' } },
    },
    async (ctx) => {
      const token = ctx.get('x-inbound-token') || undefined;
      ctx.status = 201;
      ctx.body = await receiveInbound(deps, ctx.params.inboxId!, token, ctx.request.body);
    },
  );
}
