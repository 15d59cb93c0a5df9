import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ENV_NAMES, hashTagOf, loadConfig, loadTracingConfig } from '../../src/platform/config.js';
import { childProcessEnv } from '../../src/platform/config-child-env.js';

const base = { APP_SECRET: 'x'.repeat(40) };
// Generated development files go here, never into the checkout's .data/.
const dataDir = mkdtempSync(join(tmpdir(), 'sb-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string | undefined>, terminal = false) => loadConfig(env, { dataDir, terminal });

/** The error `fn` throws, or undefined when it returns. */
function thrownBy(fn: () => unknown): Error | undefined {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  return undefined;
}

describe('config', () => {
  it('applies the contract defaults', () => {
    const c = load(base);
    expect(c.port).toBe(3000);
    expect(c.database.url).toBe('postgres://postgres@127.0.0.1:5432/switchboard');
    expect(c.redis.url).toBe('redis://127.0.0.1:6379');
    expect(c.bullmqPrefix).toBe('sb');
    expect(c.webhooks).toMatchObject({
      retryDelaysMs: [5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000],
      timeoutMs: 10000,
      disableAfter: 20,
      allowPrivateTargets: false,
    });
    expect(c.keys.rotationGraceSeconds).toBe(3600);
    expect(c.trustProxyHops).toBe(0);
    expect(c.signupEnabled).toBe(true);
    expect(c.logFormat).toBe('json');
  });

  it('listens on this machine only in development, on every interface in production, or where HOST says', () => {
    expect(load(base).host).toBe('127.0.0.1');
    expect(load({ ...base, NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(load({ ...base, NODE_ENV: 'production', HOST: '10.0.0.7' }).host).toBe('10.0.0.7');
    expect(load({ ...base, HOST: '::' }).host).toBe('::');
    expect(load(base).metricsPort).toBeNull();
    expect(load({ ...base, METRICS_PORT: '9464' }).metricsPort).toBe(9464);
  });

  it('.env.example lists every variable with its default', () => {
    const lines = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8').split('\n');
    const example = Object.fromEntries(
      lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(Object.keys(example).sort()).toEqual([...ENV_NAMES].sort());
    expect(load({ ...example, ...base })).toEqual(load(base));
  });

  it('logs pretty at a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(load(base, true).logFormat).toBe('pretty');
    expect(load(base, false).logFormat).toBe('json');
    expect(load({ ...base, LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(load({ ...base, LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  });

  it('generates operator credentials outside production, once, and keeps them; given ones win; production has none', () => {
    const dev = load(base);
    expect(dev.ops).toEqual({
      username: 'ops',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      file: join(dataDir, 'ops-credentials'),
    });
    expect(readFileSync(join(dataDir, 'ops-credentials'), 'utf8')).toBe(`ops:${dev.ops!.password}\n`);
    expect(load({ ...base, NODE_ENV: 'test' }).ops).toEqual(dev.ops);
    expect(load({ ...base, OPS_USERNAME: 'me', OPS_PASSWORD: 'pw' }).ops).toEqual({
      username: 'me',
      password: 'pw',
      file: null,
    });
    expect(load({ ...base, NODE_ENV: 'production' }).ops).toBeNull();
    expect(load({ ...base, NODE_ENV: 'production', OPS_USERNAME: 'me', OPS_PASSWORD: 'pw' }).ops).toMatchObject({
      username: 'me',
    });
  });

  it('generates the app secret outside production the same way', () => {
    const { appSecret } = load({});
    expect(appSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(load({}).appSecret).toBe(appSecret);
  });

  it('refuses a credentials file that is not user:password, naming it', () => {
    const other = mkdtempSync(join(tmpdir(), 'sb-config-'));
    try {
      writeFileSync(join(other, 'ops-credentials'), 'no-separator\n');
      expect(() => loadConfig(base, { dataDir: other })).toThrow(/ops-credentials: expected one line user:password/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('parses lists and booleans', () => {
    const c = load({
      ...base,
      WEBHOOK_RETRY_DELAYS_MS: '10, 20,30',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SIGNUP_ENABLED: 'false',
    });
    expect(c.webhooks.retryDelaysMs).toEqual([10, 20, 30]);
    expect(c.webhooks.allowPrivateTargets).toBe(true);
    expect(c.signupEnabled).toBe(false);
  });

  it('takes Redis Cluster nodes instead of a URL, with a hash-tagged prefix', () => {
    const c = load({
      ...base,
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b.internal:7001,[::1]:7002',
      BULLMQ_PREFIX: '{sb}',
    });
    expect(c.redis.clusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b.internal', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(c.redis.explicit).toBe(true);
    expect(load({ ...base, REDIS_CLUSTER_NODES: 'r:1', BULLMQ_PREFIX: 'app{x}' }).bullmqPrefix).toBe('app{x}');
    expect(load(base).redis.clusterNodes).toBeNull();
    expect(hashTagOf('{sb}')).toBe('sb');
    expect(hashTagOf('{}sb')).toBeNull();
    expect(hashTagOf('a{b')).toBeNull();
  });

  it.each([
    [{ REDIS_CLUSTER_NODES: '10.0.0.1', BULLMQ_PREFIX: '{sb}' }, /^REDIS_CLUSTER_NODES must be host:port pairs/],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:70000', BULLMQ_PREFIX: '{sb}' }, /^REDIS_CLUSTER_NODES must be /],
    [{ REDIS_CLUSTER_NODES: 'redis://10.0.0.1:7000', BULLMQ_PREFIX: '{sb}' }, /^REDIS_CLUSTER_NODES must be /],
    [
      { REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_URL: 'redis://10.0.0.1:6379', BULLMQ_PREFIX: '{sb}' },
      /^REDIS_CLUSTER_NODES must be set instead of REDIS_URL: set either, not both$/,
    ],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:7000' }, /^BULLMQ_PREFIX must be in \{…\} hash-tag form \(e\.g\. \{sb\}\)/],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:7000', BULLMQ_PREFIX: '{}sb' }, /^BULLMQ_PREFIX must be in \{…\} hash-tag form/],
    [{ PORT: 'eighty' }, /^PORT must be a port number between 0 and 65535, got "eighty"$/],
    [{ PORT: '70000' }, /^PORT must be a port number between 0 and 65535, got "70000"$/],
    [{ WEBHOOK_RETRY_DELAYS_MS: '30s,1m' }, /^WEBHOOK_RETRY_DELAYS_MS must be milliseconds separated by commas/],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' }, /^WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL, e\.g\. postgres:.*, got 9 characters \(not shown\)$/],
    [{ BULLMQ_PREFIX: 'a:b' }, /^BULLMQ_PREFIX must be 1 to 64 characters without ":" or spaces, got "a:b"$/],
    [{ WEBHOOK_RETENTION_DAYS: '0' }, /^WEBHOOK_RETENTION_DAYS must be a whole number of days between 1 and 3650/],
    [{ WEBHOOK_RETENTION_DAYS: '2.5' }, /^WEBHOOK_RETENTION_DAYS must be /],
    [{ WEBHOOK_RETENTION_DAYS: 'thirty' }, /^WEBHOOK_RETENTION_DAYS must be /],
    [{ WEBHOOK_BATCHING: 'fast' }, /^WEBHOOK_BATCHING must be latency, balanced or throughput, got "fast"$/],
    [{ QUEUE_CONCURRENCY: 'webhook-delivery=0' }, /^QUEUE_CONCURRENCY must be queue=number pairs/],
    [{ QUEUE_CONCURRENCY: 'webhooks=5' }, /^QUEUE_CONCURRENCY must be queue=number pairs/],
    [{ SCHEDULE_INTERVALS_MS: 'watch-workers=99' }, /^SCHEDULE_INTERVALS_MS must be name=milliseconds pairs/],
    [{ SCHEDULE_INTERVALS_MS: 'watch-workers=10s' }, /^SCHEDULE_INTERVALS_MS must be name=milliseconds pairs/],
    [{ OPS_USERNAME: 'only-user' }, /^OPS_USERNAME and OPS_PASSWORD must be set both or neither$/],
    [{ LOG_FORMAT: 'text' }, /^LOG_FORMAT must be pretty or json, got "text"$/],
    [{ HOST: 'every-interface' }, /^HOST must be an IP address/],
    [{ HOST: '0.0.0.0:3000' }, /^HOST must be an IP address/],
    [{ METRICS_PORT: 'ninety' }, /^METRICS_PORT must be a port number between 1 and 65535, got "ninety"$/],
    [{ METRICS_PORT: '70000' }, /^METRICS_PORT must be a port number/],
    [{ WORKERS: '65' }, /^WORKERS must be auto or a whole number between 0 and 64, got "65"$/],
    [{ WORKERS: '-1' }, /^WORKERS must be auto or a whole number between 0 and 64/],
    [{ WORKERS: '1.5' }, /^WORKERS must be auto or a whole number between 0 and 64/],
    [{ WORKERS: 'all' }, /^WORKERS must be auto or a whole number between 0 and 64/],
    [{ SHUTDOWN_TIMEOUT_MS: 'soon' }, /^SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds/],
    [{ SHUTDOWN_TIMEOUT_MS: '2.5' }, /^SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds/],
    [{ NODE_ENV: 'production', APP_SECRET: undefined }, /^APP_SECRET must be set when NODE_ENV=production/],
    [{ APP_SECRET: 'short secret' }, /^APP_SECRET must be at least 32 characters, got 12 characters \(not shown\)$/],
  ])('rejects %o with one line saying what is wanted', (env, pattern) => {
    const err = thrownBy(() => load({ ...base, ...env }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toMatch(pattern);
    expect(err!.message).not.toContain('\n');
  });

  it("says what a value must be in words, and what it got, never the validator's words", () => {
    expect(thrownBy(() => load({ ...base, WEBHOOK_TIMEOUT_MS: 'abc' }))?.message).toBe(
      'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds between 100 and 120000, got "abc"',
    );
    expect(thrownBy(() => load({ ...base, WEBHOOK_TIMEOUT_MS: '99' }))?.message).toBe(
      'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds between 100 and 120000, got "99"',
    );
    const secret = thrownBy(() => load({ ...base, OPS_USERNAME: 'me', SMTP_URL: 'smtp://me:hunter2 host' }));
    expect(secret?.message).toBe(
      'SMTP_URL must be a URL, e.g. smtp://user:password@host:587, got 22 characters (not shown)',
    );
    const line = thrownBy(() => load({ ...base, BULLMQ_PREFIX: 'a\nb' }))?.message;
    expect(line).toBe('BULLMQ_PREFIX must be 1 to 64 characters without ":" or spaces, got "a\\nb"');
  });

  it('reads WORKERS (auto by default) and SHUTDOWN_TIMEOUT_MS (25 s by default)', () => {
    expect(load(base)).toMatchObject({ workers: 'auto', shutdownTimeoutMs: 25_000 });
    const given = load({ ...base, WORKERS: '0', SHUTDOWN_TIMEOUT_MS: '5000' });
    expect(given).toMatchObject({ workers: 0, shutdownTimeoutMs: 5000 });
    expect(load({ ...base, WORKERS: '64' }).workers).toBe(64);
    expect(load({ ...base, WORKERS: 'auto' }).workers).toBe('auto');
  });

  it('reads at most 36 variables besides OTEL_*, each with its words for the docs', () => {
    const own = ENV_NAMES.filter((name) => !name.startsWith('OTEL_'));
    expect(own.length).toBeLessThanOrEqual(36);
  });

  it('chooses the delivery batching by profile, balanced by default', () => {
    expect(load(base).webhooks).toMatchObject({
      batchWindowMs: 0,
      recordWindowMs: 20,
      deliveriesPerJob: 10,
      armWindowMs: 5,
    });
    const latency = load({ ...base, WEBHOOK_BATCHING: 'latency' }).webhooks;
    expect(latency).toMatchObject({ batchWindowMs: 0, recordWindowMs: 0, deliveriesPerJob: 1, armWindowMs: 0 });
    const throughput = load({ ...base, WEBHOOK_BATCHING: 'throughput' }).webhooks;
    expect(throughput).toMatchObject({ batchWindowMs: 5, recordWindowMs: 20, deliveriesPerJob: 20, armWindowMs: 10 });
  });

  it('has one concurrency setting per queue', () => {
    const c = load(base);
    expect(c.queueConcurrency).toEqual({
      'webhook-delivery': 50,
      'webhook-fanout': 50,
      'message-send': 20,
      'agent-runs': 20,
      maintenance: 5,
    });
    expect(c.webhooks).toMatchObject({ concurrency: 50, streamInFlight: 10, streamsPerAccount: 5 });
    const set = load({ ...base, QUEUE_CONCURRENCY: 'webhook-delivery=100, maintenance=2' });
    expect(set.queueConcurrency).toMatchObject({ 'webhook-delivery': 100, maintenance: 2, 'webhook-fanout': 50 });
    expect(set.webhooks).toMatchObject({ concurrency: 100, streamInFlight: 20 });
    expect(load({ ...base, QUEUE_CONCURRENCY: 'webhook-delivery=1' }).webhooks.streamInFlight).toBe(1);
  });

  it("reads each maintenance job's interval and each worker process's checks from SCHEDULE_INTERVALS_MS", () => {
    const c = load(base);
    expect(c.schedules.everyMs['relay-outbox']).toBe(30_000);
    expect(Object.keys(c.schedules.everyMs)).not.toContain('watch-workers');
    expect(c.schedules.checkMs).toBe(30_000);
    expect(c.workerStuckAfterMs).toBe(10_000);
    const set = load({ ...base, SCHEDULE_INTERVALS_MS: 'relay-outbox=1000,check-schedulers=200,watch-workers=100' });
    expect(set.schedules.everyMs['relay-outbox']).toBe(1000);
    expect(set.schedules.everyMs['sweep-expired-keys']).toBe(60_000);
    expect(set).toMatchObject({ schedules: { checkMs: 200 }, workerStuckAfterMs: 100 });
  });

  it('reads WEBHOOK_SHARDS (1 by default) and WEBHOOK_WORKER_SHARDS (every shard by default)', () => {
    expect(load(base).webhooks).toMatchObject({ shards: 1, workerShards: [0] });
    expect(load({ ...base, WEBHOOK_SHARDS: '4' }).webhooks).toMatchObject({
      shards: 4,
      workerShards: [0, 1, 2, 3],
    });
    const pinned = load({ ...base, WEBHOOK_SHARDS: '8', WEBHOOK_WORKER_SHARDS: ' 5, 0-2 ,1' }).webhooks;
    expect(pinned.workerShards).toEqual([0, 1, 2, 5]);
  });

  it('ignores a variable it does not read, such as a name it never had, and starts', () => {
    const c = load({ ...base, WEBHOOK_PARTITIONS: '4', WEBHOOK_ARM_WINDOW_MS: 'nonsense', WEBHOOK_CONCURRENCY: 'x' });
    expect(c.webhooks).toMatchObject({ shards: 1, armWindowMs: 5, concurrency: 50 });
  });

  it("gives npm start's children this process's environment with the overrides on top", () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { WEBHOOK_SHARDS: '3', REDIS_URL: 'redis://127.0.0.1:2' });
      const env = childProcessEnv({ REDIS_URL: 'redis://127.0.0.1:1' });
      expect(env).toMatchObject({ WEBHOOK_SHARDS: '3', REDIS_URL: 'redis://127.0.0.1:1' });
    } finally {
      for (const name of ['WEBHOOK_SHARDS', 'REDIS_URL']) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it('refuses a bad WEBHOOK_SHARDS or WEBHOOK_WORKER_SHARDS with one line naming it', () => {
    for (const value of ['0', '257', '2.5', 'three']) {
      expect(thrownBy(() => load({ ...base, WEBHOOK_SHARDS: value }))?.message).toBe(
        `WEBHOOK_SHARDS must be a whole number between 1 and 256, got "${value}"`,
      );
    }
    const beyond = thrownBy(() => load({ ...base, WEBHOOK_SHARDS: '3', WEBHOOK_WORKER_SHARDS: '0,3' }));
    expect(beyond).toBeInstanceOf(ConfigError);
    expect(beyond?.message).toBe(
      'WEBHOOK_WORKER_SHARDS must be shards that exist: WEBHOOK_SHARDS=3 has shards 0-2, got shard 3',
    );
    for (const value of ['a', '1-', '3-1', '0;1', '300']) {
      const err = thrownBy(() => load({ ...base, WEBHOOK_SHARDS: '4', WEBHOOK_WORKER_SHARDS: value }));
      expect(err?.message).toMatch(/^WEBHOOK_WORKER_SHARDS must be shard numbers or ranges/);
      expect(err?.message.split('\n')).toHaveLength(1);
    }
  });

  it('refuses a bad WORKERS, PORT, HOST or LOG_FORMAT with one line naming it', () => {
    // What an entry point prints after "switchboard: " (one start-up proves it: test/faults/supervisor.test.ts).
    const refusals: Array<[Record<string, string>, string]> = [
      [{ WORKERS: 'many' }, 'WORKERS must be auto or a whole number between 0 and 64, got "many"'],
      [{ PORT: 'eighty' }, 'PORT must be a port number between 0 and 65535, got "eighty"'],
      [
        { HOST: 'my laptop' },
        'HOST must be an IP address to listen on, e.g. 0.0.0.0 (every interface) or 127.0.0.1, got "my laptop"',
      ],
      [{ LOG_FORMAT: 'colourful' }, 'LOG_FORMAT must be pretty or json, got "colourful"'],
    ];
    for (const [env, line] of refusals) {
      const err = thrownBy(() => load({ ...base, ...env }));
      expect(err).toBeInstanceOf(ConfigError);
      expect(err?.message).toBe(line);
    }
  });
});

describe('tracing config', () => {
  it('is off without an OTLP endpoint, or with OTEL_SDK_DISABLED=true', () => {
    expect(loadTracingConfig({})).toBeNull();
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeNull();
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(
      loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeNull();
    expect(load(base).tracing).toBeNull();
  });

  it('appends /v1/traces to the generic endpoint, takes the traces endpoint as it is, defaults to http/protobuf', () => {
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      timeoutMs: 5000,
      serviceName: null,
      maxQueueSize: 2048,
    });
    const both = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/otlp/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '3000',
      OTEL_SERVICE_NAME: 'sb-eu',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
    };
    expect(loadTracingConfig(both)).toEqual({
      url: 'https://b.example/otlp/traces',
      protocol: 'http/json',
      timeoutMs: 3000,
      serviceName: 'sb-eu',
      maxQueueSize: 100,
    });
  });

  it('names the variable of a bad value', () => {
    const bad: Array<[string, string]> = [
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
      ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
      ['OTEL_TRACES_EXPORTER', 'zipkin'],
      ['OTEL_EXPORTER_OTLP_TIMEOUT', 'soon'],
      ['OTEL_TRACES_SAMPLER', 'sometimes'],
      ['OTEL_TRACES_SAMPLER_ARG', '2'],
      ['OTEL_BSP_MAX_QUEUE_SIZE', '0'],
    ];
    for (const [name, value] of bad) {
      const err = thrownBy(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', [name]: value }));
      expect(err).toBeInstanceOf(ConfigError);
      expect(err!.message).toMatch(new RegExp(`^${name} must be .+, got "${value}"$`));
    }
  });
});
