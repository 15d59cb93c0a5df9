import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/http/dashboard/api-types.js';
import { portalListPage, portalWebhookPage } from '../../src/http/dashboard/portal-views.js';
import { webhooksPage } from '../../src/http/dashboard/webhook-views.js';

// How the dashboard and the portal show a broker destination (src/http/dashboard/destination-view.ts): its kind,
// its shown URL and where on the broker, and, in the portal, no URL form that would save the shown URL (which has
// no password) over the sealed one.

const base: Webhook = {
  id: 'wh_broker',
  kind: 'rabbitmq',
  url: 'amqp://publisher@mq.example.com/orders',
  exchange: 'switchboard',
  routingKey: 'switchboard.{event}',
  subject: null,
  events: ['message.received'],
  description: null,
  status: 'active',
  hasLegacySecret: false,
  consecutiveFailures: 0,
  rateLimitPerSecond: null,
  tenant: null,
  ordering: 'none',
  disabledAt: null,
  disabledReason: null,
  previousSecretExpiresAt: null,
  mcp: null,
  signatureScheme: 'hmac-sha256',
  publicKey: null,
  previousPublicKey: null,
  filter: null,
  createdAt: '2026-11-01T09:30:00.000Z',
  updatedAt: '2026-11-01T09:30:00.000Z',
};
const viewer = { role: 'owner', email: 'o@example.com', canAdmin: true, csrf: 'c' };
const nats: Webhook = {
  ...base,
  kind: 'nats',
  url: 'nats://nats.example.com:4222',
  exchange: null,
  routingKey: null,
  subject: 'sb.{event}',
};

describe('broker destinations on pages', () => {
  it('the dashboard list names the kind, the URL and the exchange and routing key, or the subject', () => {
    const page = webhooksPage(
      viewer,
      [base, nats].map((webhook) => ({ webhook, stats: null })),
    ).toString();
    expect(page).toContain(
      'amqp://publisher@mq.example.com/orders · exchange &#34;switchboard&#34; · routing key switchboard.{event}',
    );
    expect(page).toContain('nats://nats.example.com:4222 · subject sb.{event}');
    expect(page).toContain('wh_broker · rabbitmq');
  });

  it('the portal shows a broker destination without a URL form; an http one keeps its form', () => {
    expect(portalListPage(viewer, '/portal/x', null, [nats]).toString()).toContain('subject sb.{event}');
    const broker = portalWebhookPage(viewer, '/portal/x', base, []).toString();
    expect(broker).toContain('Destination: rabbitmq');
    expect(broker).not.toContain('Save URL');
    const http = portalWebhookPage(viewer, '/portal/x', { ...base, kind: 'http', url: 'https://example.com/h' }, []);
    expect(http.toString()).toContain('Save URL');
  });
});
