import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePayloadOfEnvelope } from '../../packages/cli/src/sample-payload.js';
import { runCli } from '../helpers/cli-process.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// What a newcomer sends with `switchboard trigger`: sample payloads that look like the real thing (so a filter on
// an email can be tried with them), the same every time; timestamps of any RFC 3339 form in --payload; a typo of
// an event type answered with the name it likely meant, by the CLI and by the API. No worker runs: a trigger's
// answer names the deliveries it made, and what matters here is which subscriptions got one.

let t: TestContext;
let api: Client;
let owner: SetupAccount & { accountKey: { key: string } };
let env: Record<string, string>;
let catalog: Array<{ name: string; schema: any }>;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  owner = await setupAccount(t, { accountKey: { name: 'cli', scopes: ['read:webhooks', 'write:webhooks'] } });
  env = { SWITCHBOARD_URL: t.url, SWITCHBOARD_API_KEY: owner.accountKey.key };
  catalog = (await api.get('/v1/event-types', { token: owner.token })).body.data;
});
afterAll(() => t?.close());

const sampleOf = (event: string) => samplePayloadOfEnvelope(catalog.find((c) => c.name === event)!.schema) as any;

describe('sample payloads', () => {
  it('look like what they stand for: an email, a phone number, prefixed ids, timestamps, and null for what has not happened', () => {
    const contact = sampleOf('contact.created');
    expect(contact).toMatchObject({
      id: expect.stringMatching(/^ct_[0-9A-Za-z]{20}$/),
      agentId: expect.stringMatching(/^agt_[0-9A-Za-z]{20}$/),
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: expect.stringMatching(/^\+[1-9]\d{6,14}$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const message = sampleOf('message.received');
    expect(message).toMatchObject({ channel: 'email', from: 'ada@example.com', error: null, sentAt: null });
    expect(message.contactId).toBe(contact.id);
    expect(message.to).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(sampleOf('inbox.created')).toMatchObject({ address: expect.stringMatching(/@/), deletedAt: null });
    const strings = JSON.stringify(catalog.map((c) => sampleOf(c.name)));
    expect(strings).not.toContain('"sample"');
  });

  it('are the same every time', () => {
    for (const { name } of catalog) expect(sampleOf(name), name).toEqual(sampleOf(name));
  });

  it('let a filter on an email be tried: trigger reaches the subscription whose filter the sample matches', async () => {
    const subscribe = async (email: string) =>
      (
        await api.post('/v1/webhooks', {
          token: owner.token,
          body: { url: 'http://127.0.0.1:9/hooks', events: ['contact.created'], filter: { email: { $eq: email } } },
        })
      ).body.id as string;
    const [matching, other] = [await subscribe('ada@example.com'), await subscribe('grace@example.com')];
    const sent = await runCli(['--json', 'trigger', 'contact.created'], env);
    expect(sent.code, sent.stderr).toBe(0);
    const { deliveryIds } = JSON.parse(sent.stdout);
    expect(deliveryIds).toHaveLength(1);
    const of = async (id: string) =>
      (await api.get(`/v1/webhooks/${id}/deliveries`, { token: owner.token })).body.data.map((d: any) => d.id);
    expect(await of(matching)).toEqual(deliveryIds);
    expect(await of(other)).toEqual([]);
    const human = await runCli(['trigger', 'contact.created'], env);
    expect(human.stdout).toMatch(/^Triggered contact\.created \(evt_\w+\): 1 delivery to matching subscriptions\n$/);
  });
});

describe('timestamps in a trigger payload', () => {
  it('take any RFC 3339 form, and are delivered in the one form answers use', async () => {
    const payload = {
      ...sampleOf('contact.created'),
      createdAt: '2026-12-01T00:00:00Z',
      updatedAt: '2026-12-01T01:00:00.123456+01:00',
    };
    const sent = await runCli(['--json', 'trigger', 'contact.created', '--payload', JSON.stringify(payload)], env);
    expect(sent.code, sent.stderr).toBe(0);
    const feed = await api.get('/v1/feed', { token: owner.token });
    const event = feed.body.data.find((e: any) => e.id === JSON.parse(sent.stdout).eventId);
    expect(event.payload).toMatchObject({
      createdAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.123Z',
    });

    const bad = await runCli(
      ['trigger', 'contact.created', '--payload', JSON.stringify({ ...payload, createdAt: '2026-12-01' })],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^switchboard: validation_error: .*createdAt.*must be an RFC 3339 timestamp, e\.g\. 2026-12-01T00:00:00Z/,
    );
  });
});

describe('an unknown event type', () => {
  it('is answered by the CLI with the name it likely meant (exit 2), before anything is sent', async () => {
    const typo = await runCli(['trigger', 'contact.craeted'], env);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toBe(
      'switchboard: unknown event type "contact.craeted"; did you mean contact.created? switchboard trigger --list shows them all\n',
    );
    const far = await runCli(['trigger', 'nothing.like.it'], env);
    expect(far.stderr).toBe(
      'switchboard: unknown event type "nothing.like.it"; switchboard trigger --list shows them all\n',
    );
  });

  it('is answered by the API with a 400 naming the likely one, wherever an event name is taken', async () => {
    const create = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['contact.created', 'mesage.received'] },
    });
    expect(create.status).toBe(400);
    expect(create.body.error.details.fields).toEqual([
      {
        field: 'events.1',
        message: 'unknown event "mesage.received"; did you mean message.received? GET /v1/event-types lists them all',
      },
    ]);
    const test = await api.post('/v1/webhooks/test-events', {
      token: owner.token,
      body: { event: 'Contact.Created', payload: {} },
    });
    expect(test.status).toBe(400);
    expect(test.body.error.message).toContain('did you mean contact.created?');
    const stream = await api.get('/v1/webhook-streams?events=contact.creatd', { token: owner.token });
    expect(stream.status).toBe(400);
    expect(JSON.stringify(stream.body)).toContain('did you mean contact.created?');
  });
});
