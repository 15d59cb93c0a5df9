import { PassThrough } from 'node:stream';
import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import type { EventType } from '../../events/event-types.js';
import { eventPayloadSchema } from '../../feed/event-schemas.js';
import { parseInput } from '../../platform/validation.js';
import type { StreamDelivery } from '../../webhooks/stream-messages.js';
import { streamReportInput } from '../../webhooks/stream-messages.js';
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
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

// The development tools of webhooks, which `switchboard listen` and `switchboard trigger` use: a stream destination
// (server-sent events down a connection the CLI holds open, reports back by POST) and test events of any type
// (docs/decisions.md#stream-destinations, docs/cli.md).

const tag = 'Webhooks';
/** A comment line down an idle stream, so proxies and the CLI see it is alive. */
const HEARTBEAT_MS = 15_000;

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

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
        'A `text/event-stream` that is a subscription of its own kind for as long as it stays open: first an `opened` event (this schema: the subscription id and the session secret its deliveries are signed with), then one `delivery` event per attempt (components.schemas.WebhookStreamDelivery), each to be answered with POST /v1/webhook-streams/{webhookId}/reports. Closing the connection deletes the subscription. At most WEBHOOK_STREAMS_PER_ACCOUNT open per account (429 beyond).',
    },
    async (ctx) => {
      const { events: raw } = parseInput(openStreamQuery, ctx.query);
      const events = parseInput(streamEvents, raw ?? ''); // '' is every event type
      const out = new PassThrough();
      const stream = await openStream(deps, callerOf(ctx), events, {
        deliver: (d: StreamDelivery) => out.write(sse('delivery', d)),
        end: (reason: string) => out.end(sse('closed', { reason })),
      });
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);
      ctx.status = 200;
      ctx.set({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      ctx.body = out;
      out.write(sse('opened', { webhookId: stream.webhookId, events: stream.events, secret: stream.secret }));
      const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const close = () => {
        clearInterval(heartbeat);
        stream.close('The listen session disconnected').catch((err: unknown) => {
          deps.logger.warn({ err, webhookId: stream.webhookId }, 'closing a stream failed');
        });
      };
      // The CLI may be gone already (it hung up while the stream was being opened): close it now.
      if (ctx.req.socket.destroyed || ctx.res.destroyed) close();
      else ctx.res.once('close', close);
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
