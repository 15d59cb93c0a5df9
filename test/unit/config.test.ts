import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ENV_NAMES, hashTagOf, loadConfig, loadTracingConfig } from '../../src/platform/config.js';

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

/** An entry point started the way `npm start` or `npm run migrate` would, with `env` over this environment. */
const start = (entry: 'main' | 'migrate', env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', `src/${entry}.ts`], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('config', () => {
  it('applies the contract defaults', () => {
    const c = load(base);
    expect(c.port).toBe(3000);
    expect(c.database.url).toBe('postgres://postgres@127.0.0.1:5432/switchboard');
    expect(c.redis.url).toBe('redis://127.0.0.1:6379');
    expect(c.bullmqPrefix).toBe('sb');
    expect(c.webhooks).toMatchObject({
      retryDelaysMs: [30000, 60000, 120000, 240000, 480000],
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
    [{ REDIS_CLUSTER_NODES: '10.0.0.1', BULLMQ_PREFIX: '{sb}' }, /^REDIS_CLUSTER_NODES: expected host:port/],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:70000', BULLMQ_PREFIX: '{sb}' }, /^REDIS_CLUSTER_NODES: /],
    [{ REDIS_CLUSTER_NODES: 'redis://10.0.0.1:7000', BULLMQ_PREFIX: '{sb}' }, /^REDIS_CLUSTER_NODES: /],
    [
      { REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_URL: 'redis://10.0.0.1:6379', BULLMQ_PREFIX: '{sb}' },
      /^REDIS_CLUSTER_NODES: set either/,
    ],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:7000' }, /^BULLMQ_PREFIX: must be in \{…\} hash-tag form \(e\.g\. \{sb\}\)/],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:7000', BULLMQ_PREFIX: '{}sb' }, /^BULLMQ_PREFIX: must be in \{…\} hash-tag form/],
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ WEBHOOK_RETRY_DELAYS_MS: '30s,1m' }, /^WEBHOOK_RETRY_DELAYS_MS: /],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' }, /^WEBHOOK_ALLOW_PRIVATE_TARGETS: /],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL: /],
    [{ BULLMQ_PREFIX: 'a:b' }, /^BULLMQ_PREFIX: /],
    [{ WEBHOOK_RETENTION_DAYS: '0' }, /^WEBHOOK_RETENTION_DAYS: /],
    [{ WEBHOOK_BATCH_WINDOW_MS: '51' }, /^WEBHOOK_BATCH_WINDOW_MS: /],
    [{ WEBHOOK_BATCH_WINDOW_MS: '-1' }, /^WEBHOOK_BATCH_WINDOW_MS: /],
    [{ WEBHOOK_RECORD_WINDOW_MS: '1001' }, /^WEBHOOK_RECORD_WINDOW_MS: /],
    [{ WEBHOOK_RECORD_WINDOW_MS: 'soon' }, /^WEBHOOK_RECORD_WINDOW_MS: /],
    [{ WEBHOOK_DELIVERIES_PER_JOB: '0' }, /^WEBHOOK_DELIVERIES_PER_JOB: /],
    [{ WEBHOOK_DELIVERIES_PER_JOB: '51' }, /^WEBHOOK_DELIVERIES_PER_JOB: /],
    [{ WEBHOOK_ARM_WINDOW_MS: '51' }, /^WEBHOOK_ARM_WINDOW_MS: /],
    [{ WEBHOOK_ARM_WINDOW_MS: '2.5' }, /^WEBHOOK_ARM_WINDOW_MS: /],
    [{ WORKER_STUCK_AFTER_MS: '99' }, /^WORKER_STUCK_AFTER_MS: /],
    [{ WORKER_STUCK_AFTER_MS: '10s' }, /^WORKER_STUCK_AFTER_MS: /],
    [{ WEBHOOK_RETENTION_DAYS: '2.5' }, /^WEBHOOK_RETENTION_DAYS: /],
    [{ WEBHOOK_RETENTION_DAYS: 'thirty' }, /^WEBHOOK_RETENTION_DAYS: /],
    [{ OPS_USERNAME: 'only-user' }, /^OPS_USERNAME\/OPS_PASSWORD: /],
    [{ LOG_FORMAT: 'text' }, /^LOG_FORMAT: /],
    [{ HOST: 'every-interface' }, /^HOST: expected an IP address/],
    [{ HOST: '0.0.0.0:3000' }, /^HOST: expected an IP address/],
    [{ METRICS_PORT: 'ninety' }, /^METRICS_PORT: expected a port number/],
    [{ METRICS_PORT: '70000' }, /^METRICS_PORT: expected a port number/],
    [{ WORKERS: '65' }, /^WORKERS: expected auto or an integer 0\.\.64$/],
    [{ WORKERS: '-1' }, /^WORKERS: expected auto or an integer 0\.\.64$/],
    [{ WORKERS: '1.5' }, /^WORKERS: expected auto or an integer 0\.\.64$/],
    [{ WORKERS: 'all' }, /^WORKERS: expected auto or an integer 0\.\.64$/],
    [{ SHUTDOWN_TIMEOUT_MS: 'soon' }, /^SHUTDOWN_TIMEOUT_MS: /],
    [{ SHUTDOWN_TIMEOUT_MS: '2.5' }, /^SHUTDOWN_TIMEOUT_MS: /],
    [{ NODE_ENV: 'production', APP_SECRET: undefined }, /^APP_SECRET: required/],
  ])('rejects %o with one line naming the variable', (env, pattern) => {
    const err = thrownBy(() => load({ ...base, ...env }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toMatch(pattern);
    expect(err!.message).not.toContain('\n');
  });

  it('reads WORKERS (auto by default) and SHUTDOWN_TIMEOUT_MS (25 s by default)', () => {
    expect(load(base)).toMatchObject({ workers: 'auto', shutdownTimeoutMs: 25_000 });
    const given = load({ ...base, WORKERS: '0', SHUTDOWN_TIMEOUT_MS: '5000' });
    expect(given).toMatchObject({ workers: 0, shutdownTimeoutMs: 5000 });
    expect(load({ ...base, WORKERS: '64' }).workers).toBe(64);
    expect(load({ ...base, WORKERS: 'auto' }).workers).toBe('auto');
  });

  it("reads the delivery statements' windows, and the delivery queue's concurrency a record batch is sized by", () => {
    expect(load(base).webhooks).toMatchObject({ batchWindowMs: 0, recordWindowMs: 20 });
    expect(load({ ...base, WEBHOOK_RECORD_WINDOW_MS: '0' }).webhooks.recordWindowMs).toBe(0);
    expect(load(base).queueConcurrency['webhook-delivery']).toBe(50);
    expect(load({ ...base, WEBHOOK_CONCURRENCY: '100' }).queueConcurrency['webhook-delivery']).toBe(100);
    const overridden = load({ ...base, WEBHOOK_CONCURRENCY: '100', QUEUE_CONCURRENCY: 'webhook-delivery=8' });
    expect(overridden.queueConcurrency['webhook-delivery']).toBe(8);
  });

  it('reads how many first attempts share a job (10 by default) and how long their adds wait (5 ms by default)', () => {
    expect(load(base).webhooks).toMatchObject({ deliveriesPerJob: 10, armWindowMs: 5 });
    const given = load({ ...base, WEBHOOK_DELIVERIES_PER_JOB: '1', WEBHOOK_ARM_WINDOW_MS: '0' });
    expect(given.webhooks).toMatchObject({ deliveriesPerJob: 1, armWindowMs: 0 });
  });

  it('reads how long a worker with room may take no job while one is ready (10 s by default)', () => {
    expect(load(base).workerStuckAfterMs).toBe(10_000);
    expect(load({ ...base, WORKER_STUCK_AFTER_MS: '100' }).workerStuckAfterMs).toBe(100);
  });

  it('reads WEBHOOK_PARTITIONS (1 by default) and WORKER_PARTITIONS (every partition by default)', () => {
    expect(load(base).webhooks).toMatchObject({ partitions: 1, workerPartitions: [0] });
    expect(load({ ...base, WEBHOOK_PARTITIONS: '4' }).webhooks).toMatchObject({
      partitions: 4,
      workerPartitions: [0, 1, 2, 3],
    });
    const pinned = load({ ...base, WEBHOOK_PARTITIONS: '8', WORKER_PARTITIONS: ' 5, 0-2 ,1' }).webhooks;
    expect(pinned.workerPartitions).toEqual([0, 1, 2, 5]);
  });

  it('refuses a bad WEBHOOK_PARTITIONS or WORKER_PARTITIONS with one line naming it', () => {
    for (const value of ['0', '257', '2.5', 'three']) {
      expect(thrownBy(() => load({ ...base, WEBHOOK_PARTITIONS: value }))?.message).toMatch(/^WEBHOOK_PARTITIONS: /);
    }
    const beyond = thrownBy(() => load({ ...base, WEBHOOK_PARTITIONS: '3', WORKER_PARTITIONS: '0,3' }));
    expect(beyond).toBeInstanceOf(ConfigError);
    expect(beyond?.message).toBe(
      'WORKER_PARTITIONS: partition 3 does not exist; WEBHOOK_PARTITIONS=3 has partitions 0-2',
    );
    expect(thrownBy(() => load({ ...base, WORKER_PARTITIONS: '1' }))?.message).toMatch(
      /^WORKER_PARTITIONS: partition 1/,
    );
    for (const value of ['a', '1-', '3-1', '0;1', '300']) {
      const err = thrownBy(() => load({ ...base, WEBHOOK_PARTITIONS: '4', WORKER_PARTITIONS: value }));
      expect(err?.message).toMatch(/^WORKER_PARTITIONS: /);
      expect(err?.message.split('\n')).toHaveLength(1);
    }
  });

  it('stops npm start with one line naming WORKERS when it is not auto or 0..64', () => {
    const res = start('main', { WORKERS: 'many' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('switchboard: WORKERS: expected auto or an integer 0..64');
    expect(res.stdout).toBe('');
  });

  it('stops start-up with one clear line on a bad value', () => {
    const res = start('migrate', { PORT: 'eighty' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toMatch(/^switchboard: PORT: /);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('stops start-up with one line naming HOST when it is not an address', () => {
    const res = start('main', { HOST: 'my laptop' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe(
      'switchboard: HOST: expected an IP address to listen on, e.g. 0.0.0.0 (every interface) or 127.0.0.1',
    );
    expect(res.stdout).toBe('');
  });

  it('stops start-up with one line naming LOG_FORMAT when it is neither pretty nor json', () => {
    const res = start('main', { LOG_FORMAT: 'colourful' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('switchboard: LOG_FORMAT: Invalid option: expected one of "pretty"|"json"');
    expect(res.stdout).toBe('');
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
      expect(err!.message).toMatch(new RegExp(`^${name}: `));
    }
  });
});
