import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isStandardSecret, readArguments, readSubscribeParams } from '../../src/mcp/events/webhook-params.js';
import { subscriptionIdOf } from '../../src/mcp/events/webhook-service.js';

// The pure rules of events/subscribe's params (docs/mcp-events-webhook.md): the secret's bounds, the canonical
// arguments the id is derived from, and the order of refusals.

const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

describe('events/subscribe params', () => {
  it('takes a whsec_ secret of 24 to 64 bytes and nothing else', () => {
    for (const n of [24, 32, 64]) expect(isStandardSecret(secretOf(n)), String(n)).toBe(true);
    for (const n of [0, 23, 65]) expect(isStandardSecret(secretOf(n)), String(n)).toBe(false);
    expect(isStandardSecret(secretOf(32).replace('whsec_', 'whsk_'))).toBe(false);
    expect(isStandardSecret(`whsec_${'A'.repeat(31)}`)).toBe(false);
    expect(isStandardSecret(`whsec_${randomBytes(32).toString('base64url')}-`)).toBe(false);
  });

  it('reads arguments canonically (keys sorted, absent ones dropped) into the filter of their fields', () => {
    const a = readArguments('inbox.created', { inboxId: 'inb_1', agentId: 'agt_1' });
    const b = readArguments('inbox.created', { agentId: 'agt_1', inboxId: 'inb_1' });
    expect(JSON.stringify(a.canonical)).toBe(JSON.stringify(b.canonical));
    expect(a.filter).toEqual({ agentId: 'agt_1', id: 'inb_1' });
    expect(readArguments('agent.updated', {}).filter).toEqual({});
    expect(() => readArguments('billing.credits_low', { agentId: 'agt_1' })).toThrow(/inputSchema/);
  });

  it('derives one id per (principal, url, name, arguments), and another for any change of them', () => {
    const id = subscriptionIdOf('key:k1', 'https://a.example/h', 'agent.updated', { agentId: 'agt_1' });
    expect(id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(subscriptionIdOf('key:k1', 'https://a.example/h', 'agent.updated', { agentId: 'agt_1' })).toBe(id);
    for (const other of [
      subscriptionIdOf('key:k2', 'https://a.example/h', 'agent.updated', { agentId: 'agt_1' }),
      subscriptionIdOf('key:k1', 'https://a.example/g', 'agent.updated', { agentId: 'agt_1' }),
      subscriptionIdOf('key:k1', 'https://a.example/h', 'inbox.created', { agentId: 'agt_1' }),
      subscriptionIdOf('key:k1', 'https://a.example/h', 'agent.updated', {}),
    ]) {
      expect(other).not.toBe(id);
    }
  });

  it('answers a mode not offered as Unsupported before any other refusal', () => {
    const attempt = () => readSubscribeParams({ name: 1, delivery: { mode: 'poll', url: 'x', secret: 'y' } });
    expect(attempt).toThrow(
      expect.objectContaining({ code: -32014, data: { feature: 'deliveryMode', value: 'poll' } }),
    );
    expect(() =>
      readSubscribeParams({ name: 'agent.updated', delivery: { mode: 'webhook', url: 'x', secret: 'y' } }),
    ).toThrow(expect.objectContaining({ code: -32602 }));
  });
});
