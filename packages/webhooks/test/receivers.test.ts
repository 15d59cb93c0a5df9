import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError, type WebhookEnvelope } from '@switchboard/webhooks';
import { NOW, randomSecret, serviceDelivery } from './deliveries.js';

// The receivers packages/webhooks/README.md shows, run for real: a Koa app on 127.0.0.1 that reads the raw body on
// its webhook route while a JSON body parser serves the rest, and a fetch-style handler given a Fetch Request.

const now = () => NOW;

describe('a Koa receiver', () => {
  const secret = randomSecret();
  const received: WebhookEnvelope[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const rawBody = async (req: AsyncIterable<Buffer>) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.method !== 'POST' || ctx.path !== '/webhooks/switchboard') return next();
      try {
        received.push(await verify(await rawBody(ctx.req), ctx.headers, secret, { now }));
        ctx.status = 204;
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        ctx.status = 400;
        ctx.body = err.reason;
      }
    });
    // The rest of the app parses JSON, as a body parser would: after the webhook route, never before it.
    app.use(async (ctx) => {
      ctx.body = { parsed: JSON.parse((await rawBody(ctx.req)).toString() || 'null') };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('verifies a delivery on its route and refuses one signed with another secret', async () => {
    const d = serviceDelivery({ secret });
    const ok = await fetch(`${url}/webhooks/switchboard`, { method: 'POST', headers: d.headers, body: d.body });
    expect(ok.status).toBe(204);
    expect(received.map((e) => e.id)).toEqual([d.id]);
    const other = serviceDelivery();
    const refused = await fetch(`${url}/webhooks/switchboard`, {
      method: 'POST',
      headers: other.headers,
      body: other.body,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('no_matching_signature');
    const elsewhere = await fetch(`${url}/other`, { method: 'POST', body: '{"a":1}' });
    expect(await elsewhere.json()).toEqual({ parsed: { a: 1 } });
  });
});

describe('a fetch-style handler', () => {
  const secret = randomSecret();
  // As the README's: the body read once as bytes, the Request's Headers passed as they are.
  const handler = async (req: Request): Promise<Response> => {
    const body = new Uint8Array(await req.arrayBuffer());
    try {
      const envelope = await verify(body, req.headers, secret, { now });
      return Response.json({ received: envelope.id });
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(err.reason, { status: 400 });
      throw err;
    }
  };
  const request = (body: string, headers: Record<string, string>) =>
    new Request('https://receiver.example/webhooks', { method: 'POST', headers, body });

  it('answers a signed Request with its envelope and a tampered one with 400 and the reason', async () => {
    const d = serviceDelivery({ secret });
    const ok = await handler(request(d.body, d.headers));
    expect(await ok.json()).toEqual({ received: d.id });
    const tampered = await handler(request(d.body.replace('ct_1', 'ct_4'), d.headers));
    expect([tampered.status, await tampered.text()]).toEqual([400, 'no_matching_signature']);
    const unsigned = await handler(request(d.body, { 'content-type': 'application/json' }));
    expect([unsigned.status, await unsigned.text()]).toEqual([400, 'missing_header']);
  });
});
