import { createServer as createTlsServer } from 'node:https';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { AppError } from '../../src/platform/errors.js';
import { BlockedAddressError, checkTargetUrl, createHttpClient, pickAddress } from '../../src/platform/http-client.js';
import { blockedAddressReason } from '../../src/platform/ip-ranges.js';
import { startReceiver } from '../helpers/receiver.js';

const strict = loadConfig({ NODE_ENV: 'test', APP_SECRET: 'x'.repeat(40), WEBHOOK_TIMEOUT_MS: '500' });
const lenient = loadConfig({
  NODE_ENV: 'test',
  APP_SECRET: 'x'.repeat(40),
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});

const strictClient = createHttpClient(strict);
const lenientClient = createHttpClient(lenient);
afterAll(() => Promise.all([strictClient.close(), lenientClient.close()]));

async function rejection(url: string): Promise<AppError | undefined> {
  try {
    await checkTargetUrl(strict, url);
    return undefined;
  } catch (err) {
    return err as AppError;
  }
}

const HOSTILE = [
  'http://93.184.216.34/',
  'https://user:pass@93.184.216.34/',
  'https://user@93.184.216.34/',
  'ftp://93.184.216.34/',
  'not a url',
  'https://127.0.0.1/',
  'https://127.1/',
  'https://0x7f000001/',
  'https://0x7f.0.0.1/',
  'https://2130706433/',
  'https://017700000001/',
  'https://0177.0.0.1/',
  'https://127.0.0.1.:8443/hook',
  'https://%31%32%37.0.0.1/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'https://0.0.0.0/',
  'https://0/',
  'https://10.1.2.3/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://169.254.1.1/',
  'https://224.0.0.1/',
  'https://240.0.0.1/',
  'https://255.255.255.255/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://[::1]/',
  'https://[::]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:169.254.169.254]/',
  'https://[::127.0.0.1]/',
  'https://[64:ff9b::127.0.0.1]/',
  'https://[64:ff9b::a9fe:a9fe]/',
  'https://[2002:7f00:1::]/',
  'https://[2002:a00:1::1]/',
  'https://[fc00::1]/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://[ff02::1]/',
  'https://[2001:db8::1]/',
];

describe('checkTargetUrl (creation-time)', () => {
  it.each(HOSTILE)('rejects %s with invalid_webhook_url', async (url) => {
    const err = await rejection(url);
    expect(err).toBeInstanceOf(AppError);
    expect(err!.code).toBe('invalid_webhook_url');
    expect(err!.message).toMatch(/url/i);
  });

  it('accepts public addresses and names that do not resolve right now', async () => {
    await expect(checkTargetUrl(strict, 'https://93.184.216.34/hooks')).resolves.toBeUndefined();
    await expect(checkTargetUrl(strict, 'https://[2606:2800:220:1:248:1893:25c8:1946]/')).resolves.toBeUndefined();
    await expect(checkTargetUrl(strict, 'https://receiver.invalid/hooks')).resolves.toBeUndefined();
  });

  it('allows http and private targets only when WEBHOOK_ALLOW_PRIVATE_TARGETS is set, never userinfo', async () => {
    await expect(checkTargetUrl(lenient, 'http://127.0.0.1:9/')).resolves.toBeUndefined();
    await expect(checkTargetUrl(lenient, 'http://u:p@127.0.0.1:9/')).rejects.toMatchObject({
      code: 'invalid_webhook_url',
    });
  });
});

describe('blockedAddressReason', () => {
  it('judges embedded IPv4 by the address it carries', () => {
    expect(blockedAddressReason('::ffff:8.8.8.8')).toBeNull();
    expect(blockedAddressReason('64:ff9b::808:808')).toBeNull();
    expect(blockedAddressReason('2002:808:808::1')).toBeNull();
    expect(blockedAddressReason('::ffff:10.0.0.1')).toMatch(/IPv4-mapped/);
    expect(blockedAddressReason('64:ff9b::a00:1')).toMatch(/NAT64/);
    expect(blockedAddressReason('2002:c0a8:101::')).toMatch(/6to4/);
    expect(blockedAddressReason('8.8.8.8')).toBeNull();
    expect(blockedAddressReason('100.63.255.255')).toBeNull();
    expect(blockedAddressReason('100.128.0.0')).toBeNull();
  });
});

describe('the connector judges the address actually dialled', () => {
  it('blocks a name that resolves to 127.0.0.1 at connect time when private targets are not allowed', async () => {
    const receiver = await startReceiver();
    try {
      // The creation check would reject this name; the connector must too (a name can change its answer later).
      const res = await strictClient.post(`https://localhost:${receiver.port}/`, '{}', {});
      expect(res).toMatchObject({ ok: false, error: 'blocked_address' });
      const literal = await strictClient.post(`https://127.0.0.1:${receiver.port}/`, '{}', {});
      expect(literal).toMatchObject({ ok: false, error: 'blocked_address' });
      const mapped = await strictClient.post(`https://[::ffff:127.0.0.1]:${receiver.port}/`, '{}', {});
      expect(mapped).toMatchObject({ ok: false, error: 'blocked_address' });
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('judges every DNS answer at connect time (rebinding: public at creation, 127.0.0.1 later)', async () => {
    let answers = ['93.184.216.34'];
    const resolver = async () => answers;
    expect(await pickAddress('rebind.example', false, resolver)).toBe('93.184.216.34');
    answers = ['127.0.0.1'];
    await expect(pickAddress('rebind.example', false, resolver)).rejects.toBeInstanceOf(BlockedAddressError);
    answers = ['93.184.216.34', '10.0.0.7'];
    await expect(pickAddress('rebind.example', false, resolver)).rejects.toThrow(/10\.0\.0\.7/);
    answers = ['::ffff:169.254.169.254'];
    await expect(pickAddress('rebind.example', false, resolver)).rejects.toThrow(/IPv4-mapped/);
    // The real resolver: 'localhost' resolves to loopback and is refused before any byte is sent.
    await expect(pickAddress('localhost', false)).rejects.toBeInstanceOf(BlockedAddressError);
    expect(await pickAddress('localhost', true)).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('refuses plain http when private targets are not allowed', async () => {
    expect(await strictClient.post('http://93.184.216.34/', '{}', {})).toMatchObject({
      ok: false,
      error: 'invalid_url',
    });
  });

  it('reports success, status, redirect, timeout, refused and TLS failures distinctly', async () => {
    const receiver = await startReceiver((_req, i) => {
      if (i === 0) return { status: 204, body: '' };
      if (i === 1) return { status: 500, body: 'x'.repeat(10_000) };
      if (i === 2) return { status: 302, headers: { location: 'http://127.0.0.1:1/' } };
      return { stallMs: 2000 };
    });
    try {
      expect(await lenientClient.post(receiver.url, '{}', {})).toMatchObject({ ok: true, status: 204 });
      const big = await lenientClient.post(receiver.url, '{}', {});
      expect(big).toMatchObject({ ok: false, error: 'http_status', status: 500 });
      expect(big.ok === false && big.body?.length).toBe(4096);
      expect(await lenientClient.post(receiver.url, '{}', {})).toMatchObject({
        ok: false,
        error: 'redirect',
        status: 302,
      });
      // The answer comes after 2 s: a client that waited for it would have it.
      const slow = await lenientClient.post(receiver.url, '{}', {}, { timeoutMs: 200 });
      expect(slow).toMatchObject({ ok: false, error: 'timeout' });
      expect(slow.durationMs).toBeGreaterThanOrEqual(200);
      expect(receiver.received).toHaveLength(4);
    } finally {
      await receiver.close();
    }
    expect(await lenientClient.post(receiver.url, '{}', {})).toMatchObject({ ok: false, error: 'connection_refused' });
  });

  it('reports a TLS failure as tls', async () => {
    // A TLS server with no certificate: the handshake fails.
    const server = createTlsServer({}, (_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      expect(await lenientClient.post(`https://127.0.0.1:${port}/`, '{}', {})).toMatchObject({
        ok: false,
        error: 'tls',
      });
    } finally {
      server.close();
    }
  });
});
