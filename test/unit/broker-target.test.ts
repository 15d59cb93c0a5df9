import { describe, expect, it } from 'vitest';
import {
  brokerUrlProblem,
  expandTemplate,
  parseBrokerUrl,
  redactBrokerUrl,
  routingKeyProblem,
  subjectProblem,
} from '../../src/delivery/broker-target.js';
import { brokerFailure } from '../../src/delivery/transports/broker-errors.js';

// What a broker destination names (src/delivery/broker-target.ts): the `{event}` template, the URL taken apart and
// shown without its credential, and a failure's message scrubbed of it.

describe('templates', () => {
  it('replace every {event} and nothing else', () => {
    expect(expandTemplate('switchboard.{event}', 'message.received')).toBe('switchboard.message.received');
    expect(expandTemplate('{event}.{event}', 'a.b')).toBe('a.b.a.b');
    expect(expandTemplate('fixed', 'a.b')).toBe('fixed');
  });

  it('refuse another placeholder, spaces, wildcards and empty tokens', () => {
    expect(routingKeyProblem('switchboard.{event}')).toBeNull();
    expect(routingKeyProblem('a.{evnt}')).toMatch(/placeholder/);
    expect(routingKeyProblem('a b')).not.toBeNull();
    expect(routingKeyProblem('')).not.toBeNull();
    expect(subjectProblem('switchboard.{event}')).toBeNull();
    expect(subjectProblem('sb-{event}_x.y')).toBeNull();
    for (const bad of ['a.>', 'a.*', 'a..b', '.a', 'a.', 'a b', '{x}']) expect(subjectProblem(bad), bad).not.toBeNull();
  });
});

describe('broker URLs', () => {
  it('take the scheme of their kind only', () => {
    expect(brokerUrlProblem({ schemes: ['amqp:', 'amqps:'], path: true }, 'amqps://u:p@mq.example.com/vh')).toBeNull();
    expect(brokerUrlProblem({ schemes: ['amqp:', 'amqps:'], path: true }, 'nats://mq.example.com')).toMatch(/amqp/);
    expect(brokerUrlProblem({ schemes: ['nats:', 'tls:'], path: false }, 'tls://t@nats.example.com')).toBeNull();
    expect(brokerUrlProblem({ schemes: ['nats:', 'tls:'], path: false }, 'https://nats.example.com')).toMatch(/nats/);
    expect(brokerUrlProblem({ schemes: ['nats:', 'tls:'], path: false }, 'not a url')).toMatch(/valid/);
  });

  it('parse into host, port, credentials and vhost', () => {
    expect(parseBrokerUrl('amqp://u%40x:p%2Fw@mq.example.com/orders')).toEqual({
      tls: false,
      hostname: 'mq.example.com',
      port: 5672,
      username: 'u@x',
      password: 'p/w',
      vhost: 'orders',
    });
    expect(parseBrokerUrl('amqps://mq.example.com').vhost).toBe('/');
    expect(parseBrokerUrl('amqps://mq.example.com').port).toBe(5671);
    expect(parseBrokerUrl('tls://[::1]:4333')).toMatchObject({ tls: true, hostname: '::1', port: 4333 });
  });

  it('are shown without the password, and without a token', () => {
    expect(redactBrokerUrl('amqp://publisher:s3cret@mq.example.com:5672/orders')).toBe(
      'amqp://publisher@mq.example.com:5672/orders',
    );
    expect(redactBrokerUrl('nats://tok3n@nats.example.com')).toBe('nats://nats.example.com');
    expect(redactBrokerUrl('nats://nats.example.com:4222')).toBe('nats://nats.example.com:4222');
  });
});

describe('a failure', () => {
  it('is recorded with the credential scrubbed from the library message', () => {
    const url = 'amqp://publisher:s3cret-pw@mq.example.com/';
    const answer = brokerFailure(new Error(`connect to ${url} failed: ACCESS_REFUSED for s3cret-pw`), 3, [
      url,
      's3cret-pw',
    ]);
    expect(answer).toMatchObject({ ok: false, error: 'auth_failed', durationMs: 3 });
    expect(JSON.stringify(answer)).not.toContain('s3cret-pw');
  });
});
