import type { Deps } from '../app/deps.js';
import { brokerUrlProblem, parseBrokerUrl, redactBrokerUrl } from '../delivery/broker-target.js';
import { AppError, fieldError } from '../platform/errors.js';
import { checkTargetHost, checkTargetUrl } from '../platform/http-client.js';
import { hasUrlCredentials, hideUrlCredentials } from '../platform/url-password.js';
import {
  DESTINATION_FIELDS,
  KIND_FIELDS,
  type CreateWebhookInput,
  type UpdateWebhookInput,
} from './webhooks.schema.js';
import type { WebhookRow } from './webhooks.repository.js';

// A subscription's destination as its row holds it, from what a client sent (docs/webhooks.md#destination-kinds).
// An http URL passes the SSRF guard as it always did; a broker's host passes the same guard, and the broker URL is
// sealed, with `url` keeping it without its password for display and for attempt records. The transports check
// the address again at every connect.

/** Where a poll subscription's consumer polls: its `url`, relative to the API's address. */
export const pollPath = (id: string): string => `/v1/webhooks/${id}/poll`;

type Destination = Pick<WebhookRow, 'url' | 'broker_url_sealed' | 'exchange' | 'routing_key' | 'subject'>;

/**
 * An http destination's URL passes the SSRF guard and carries no credential (a token in its query or fragment, as
 * the guard refuses a user part): a URL is shown in every read, attempt record and the dashboard, and a receiver
 * authenticates deliveries by their signature (docs/webhook-signatures.md#verifying-signatures).
 */
async function checkHttpTarget(deps: Deps, url: string): Promise<void> {
  await checkTargetUrl(deps.config, url);
  if (hasUrlCredentials(url))
    throw new AppError(
      'invalid_webhook_url',
      'The url must not carry a credential (a token, key, secret or password parameter); receivers verify the signature.',
      { url: hideUrlCredentials(url) },
    );
}

/** The row fields of a new subscription's destination, its URL checked (and sealed for a broker). */
export async function destinationOf(
  deps: Deps,
  input: CreateWebhookInput,
  id: string,
): Promise<Destination & Pick<WebhookRow, 'kind'>> {
  const kind = input.kind ?? 'http';
  const none = { broker_url_sealed: null, exchange: null, routing_key: null, subject: null };
  // A poll subscription's url is where its consumer polls (docs/adr/0089-poll-destinations.md).
  if (kind === 'poll') return { kind, url: pollPath(id), ...none };
  if (kind === 'http') {
    await checkHttpTarget(deps, input.url!);
    return { kind, url: input.url!, ...none };
  }
  const url = input.url!;
  await checkTargetHost(deps.config, parseBrokerUrl(url).hostname, redactBrokerUrl(url));
  return {
    kind,
    url: redactBrokerUrl(url),
    broker_url_sealed: deps.sealers.webhook.seal(url),
    exchange: kind === 'rabbitmq' ? input.exchange! : null,
    routing_key: kind === 'rabbitmq' ? input.routingKey! : null,
    subject: kind === 'nats' ? input.subject! : null,
  };
}

/** What a PATCH changes of a subscription's destination, checked against its kind (which never changes). */
export async function destinationPatch(
  deps: Deps,
  kind: WebhookRow['kind'],
  input: UpdateWebhookInput,
): Promise<Partial<Destination>> {
  const own: readonly string[] = KIND_FIELDS[kind as keyof typeof KIND_FIELDS] ?? [];
  const foreign = DESTINATION_FIELDS.filter((f) => input[f] !== undefined && !own.includes(f));
  if (foreign.length) throw fieldError(foreign[0]!, `not a field of kind ${kind}`);
  const patch: Partial<Destination> = {};
  if (input.exchange !== undefined) patch.exchange = input.exchange;
  if (input.routingKey !== undefined) patch.routing_key = input.routingKey;
  if (input.subject !== undefined) patch.subject = input.subject;
  // A poll subscription has no URL to change (refused before this, naming url).
  if (input.url === undefined || kind === 'poll') return patch;
  if (kind === 'http' || kind === 'stream') {
    await checkHttpTarget(deps, input.url);
    patch.url = input.url;
    return patch;
  }
  const problem = brokerUrlProblem(kind, input.url);
  if (problem) throw fieldError('url', problem);
  await checkTargetHost(deps.config, parseBrokerUrl(input.url).hostname, redactBrokerUrl(input.url));
  patch.url = redactBrokerUrl(input.url);
  patch.broker_url_sealed = deps.sealers.webhook.seal(input.url);
  return patch;
}
