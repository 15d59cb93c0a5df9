import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import type { EventType } from '../../events/event-types.js';
import { eventPayloadSchema } from '../../feed/event-schemas.js';
import { parseInput } from '../../platform/validation.js';
import type { StreamDelivery } from '../../delivery/transports/stream-messages.js';
import { streamReportInput } from '../../delivery/transports/stream-messages.js';
import {
  openStreamQuery,
  streamEvents,
  streamOpenedEvent,
  streamReportAccepted,
  testEventInput,
  testEventResponse,
} from '../../webhooks/streams.schema.js';
import { openStream, reportStreamDelivery, sendTestEventOfType } from '../../webhooks/streams.service.js';
import type { AppContext } from '../context.js';
import { answerWithEventStream, createEventStream } from '../event-stream.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

// The development tools of webhooks, which `switchboard listen` and `switchboard trigger` use: a stream destination
// (server-sent events down a connection the CLI holds open, reports back by POST) and test events of any type
// (docs/adr/0054-stream-destinations.md, docs/cli.md).

const tag = 'Webhooks';

export function registerWebhookDevRoutes(api: ApiRouter, deps: Deps) {
  const write = requireScope('write:webhooks');
  const param = (ctx: AppContext, name: string) => String((ctx.params as Record<string, string>)[name]);

  api.get(
    '/v1/webhook-streams',
    write,
    {
      operationId: 'connectWebhookStream',
      summary: 'Open a stream destination (server-sent events)',
      tag,
      query: openStreamQuery,
      response: streamOpenedEvent,
      errors: ['rate_limited'],
      description:
        'A `text/event-stream` that is a subscription of its own kind for as long as it stays open: first an `opened` event (this schema: the subscription id and the session secret its deliveries are signed with, or with `?signatureScheme=ed25519` the public key that verifies them), then one `delivery` event per attempt (components.schemas.WebhookStreamDelivery), each to be answered with POST /v1/webhook-streams/{webhookId}/reports. Closing the connection deletes the subscription. At most 5 open per account (429 beyond).',
    },
    async (ctx) => {
      const { events: raw, signatureScheme = 'hmac-sha256' } = parseInput(openStreamQuery, ctx.query);
      const events = parseInput(streamEvents, raw ?? ''); // '' is every event type
      const sse = createEventStream();
      const stream = await openStream(deps, callerOf(ctx), events, signatureScheme, {
        deliver: (d: StreamDelivery) => sse.send(d, 'delivery'),
        end: (reason: string) => sse.end({ data: { reason }, event: 'closed' }),
      });
      const { webhookId, secret, publicKey } = stream;
      sse.send(
        { webhookId, events: stream.events, secret, signatureScheme: stream.signatureScheme, publicKey },
        'opened',
      );
      // Closed by the CLI, by the hub at shutdown, or already gone while it was being opened: the stream ends.
      answerWithEventStream(ctx, sse, () => {
        stream.close('The listen session disconnected').catch((err: unknown) => {
          deps.logger.warn({ err, webhookId: stream.webhookId }, 'closing a stream failed');
        });
      });
    },
  );

  api.post(
    '/v1/webhook-streams/:webhookId/reports',
    write,
    {
      operationId: 'sendWebhookStreamReport',
      summary: 'Report what the local receiver answered to one stream delivery',
      tag,
      body: streamReportInput,
      response: streamReportAccepted,
      status: 202,
      examples: {
        request: {
          token: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.9b2f4c1e-7d3a-4e5b-8c6d-1a2b3c4d5e6f',
          deliveryId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
          status: 204,
          durationMs: 12,
        },
      },
      description:
        'The attempt is recorded with this status and duration (or error) through the same retry policy as an HTTP delivery. A report for a token that is no longer awaited (past WEBHOOK_TIMEOUT_MS) is accepted and changes nothing.',
    },
    async (ctx) => {
      const report = parseInput(streamReportInput, ctx.request.body);
      ctx.status = 202;
      ctx.body = await reportStreamDelivery(deps, principalOf(ctx).accountId, param(ctx, 'webhookId'), report);
    },
  );

  api.post(
    '/v1/webhooks/test-events',
    write,
    {
      operationId: 'sendTestEvent',
      summary: 'Send an event of any type with a payload of your choosing to the matching subscriptions',
      tag,
      body: testEventInput,
      response: testEventResponse,
      status: 202,
      description:
        "The payload must be valid against the event type's schema (GET /v1/event-types, `payloadSchema`); the event is delivered like one the platform emitted, to every active subscription of the account that asks for it (`switchboard trigger`).",
      examples: { request: { event: 'contact.created', payload: { id: 'con_…' } } },
    },
    async (ctx) => {
      const input = parseInput(testEventInput, ctx.request.body);
      const event = input.event as EventType;
      const payload = parseInput(eventPayloadSchema(event), input.payload) as Record<string, unknown>;
      ctx.status = 202;
      ctx.body = await sendTestEventOfType(deps, callerOf(ctx), event, payload);
    },
    idempotent(),
  );
}
