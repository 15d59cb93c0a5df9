import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { describeRedis } from '../../src/platform/redis.js';
import { hideUrlCredentials, withoutPassword } from '../../src/platform/url-password.js';

describe('withoutPassword', () => {
  it('hides a password in the user part and in a ?password= parameter, and keeps the rest', () => {
    const shown = withoutPassword(
      'postgres://app:s3cret-pw@db.example.com:5432/switchboard?sslmode=require&password=other-pw',
    );
    expect(shown).not.toContain('s3cret-pw');
    expect(shown).not.toContain('other-pw');
    expect(shown).toBe('postgres://app:***@db.example.com:5432/switchboard?sslmode=require&password=***');
  });

  it('leaves a URL without a password as it is, and never echoes one it cannot parse', () => {
    expect(withoutPassword('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(withoutPassword('not a url with hunter2')).toBe('(unparsable URL)');
  });

  it('is what describeRedis shows for a single server', () => {
    expect(describeRedis('redis://:r3dis-pw@cache.internal:6380/2')).toBe('redis://:***@cache.internal:6380/2');
  });
});

describe('hideUrlCredentials', () => {
  it('masks user-part passwords, token user parts and credential parameters of every URL in a text', () => {
    const text =
      'refused https://tok-1@h.example/p?a=1&access_token=tok-2#id_token=tok-3 and amqp://u:tok-4@b:5672/v?heartbeat=5, ' +
      'nats://tok-5@n:4222 "postgres://app@db/x?password=tok-6&sslmode=require" https://h/?X-Amz-Signature=tok-7';
    const shown = hideUrlCredentials(text);
    expect(shown).toBe(
      'refused https://***@h.example/p?a=1&access_token=***#id_token=*** and amqp://u:***@b:5672/v?heartbeat=5, ' +
        'nats://***@n:4222 "postgres://app@db/x?password=***&sslmode=require" https://h/?X-Amz-Signature=***',
    );
    expect(hideUrlCredentials('https://h.example/a#section-2?q')).toBe('https://h.example/a#section-2?q');
  });

  it('takes a parameter for a credential by whole words of its name, so author or keyword stay shown', () => {
    expect(hideUrlCredentials('https://h/?apiKey=k1&sessionId=k2&client_secret=k3&X-Goog-Signature=k4')).toBe(
      'https://h/?apiKey=***&sessionId=***&client_secret=***&X-Goog-Signature=***',
    );
    const plain = 'https://h/feed?author=ann&keyword=sms&passage=3&tokenizer=ws&monkey=1';
    expect(hideUrlCredentials(plain)).toBe(plain);
  });

  it('is applied to every log line, whatever field or message holds the URL', () => {
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (c: Buffer) => lines.push(c.toString()));
    const log = createLogger('info', 'test', sink);
    log.warn({ target: 'amqp://u:hunter2@b/', nested: { at: ['https://h/?token=hunter3'] } }, 'at nats://hunter4@n');
    log.error({ err: new Error('cannot reach amqps://u:hunter5@b') }, 'failed');
    const written = lines.join('');
    expect(written).toContain('amqp://u:***@b/');
    for (const secret of ['hunter2', 'hunter3', 'hunter4', 'hunter5']) expect(written).not.toContain(secret);
  });
});
