import type { Deps } from '../app/deps.js';
import { KIND_FIELDS, kindNamed } from '../delivery/kinds/registry.js';
import type { Kind } from '../delivery/kinds/kind.js';
import { AppError, fieldError } from '../platform/errors.js';
import { checkTargetHost, checkTargetUrl } from '../platform/http-client.js';
import { hasUrlCredentials, hideUrlCredentials } from '../platform/url-password.js';
import type { CreateWebhookInput, UpdateWebhookInput } from './webhooks.schema.js';
import type { WebhookRow } from './webhooks.repository.js';

// A subscription's destination as its row holds it, from what a client sent (docs/webhooks.md#destination-kinds),
// by its kind's declaration (src/delivery/kinds). A public URL passes the SSRF guard as it always did; a sealed
// one's host passes the same guard, and the URL is sealed, with `url` keeping it without its credential for
// display and for attempt records. The transports check the address again at every connect. The kind's own
// fields are kept in `settings`, by their API names.

/** Where a poll subscription's consumer polls: its `url`, relative to the API's address. */
export const pollPath = (id: string): string => `/v1/webhooks/${id}/poll`;

type Destination = Pick<WebhookRow, 'url' | 'broker_url_sealed' | 'settings'>;

/**
 * A public URL passes the SSRF guard and carries no credential (a token in its query or fragment, as the guard
 * refuses a user part): a URL is shown in every read, attempt record and the dashboard, and a receiver
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

/** A URL as the row keeps it: checked by its kind's rules and the address guard, sealed when it is secret. */
async function urlOf(deps: Deps, kind: Kind, url: string): Promise<Pick<Destination, 'url' | 'broker_url_sealed'>> {
  const rules = kind.url;
  if (rules === 'public' || rules === 'none') {
    await checkHttpTarget(deps, url);
    return { url, broker_url_sealed: null };
  }
  const problem = rules.problem(url);
  if (problem) throw fieldError('url', problem);
  const shown = rules.redact(url);
  await checkTargetHost(deps.config, rules.host(url), shown);
  return { url: shown, broker_url_sealed: deps.sealers.webhook.seal(url) };
}

/** The kind's own fields of an input, by their API names (those of other kinds are refused before this). */
const settingsOf = (kind: Kind, input: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(kind.fields.filter((f) => input[f.name] !== undefined).map((f) => [f.name, input[f.name]]));

/** The row fields of a new subscription's destination, its URL checked (and sealed when secret). */
export async function destinationOf(
  deps: Deps,
  input: CreateWebhookInput,
  id: string,
): Promise<Destination & Pick<WebhookRow, 'kind'>> {
  const kind = kindNamed(input.kind ?? 'http');
  const settings = settingsOf(kind, input as Record<string, unknown>);
  // A poll subscription's url is where its consumer polls (docs/adr/0089-poll-destinations.md).
  if (kind.url === 'none') return { kind: kind.name, url: pollPath(id), broker_url_sealed: null, settings };
  return { kind: kind.name, ...(await urlOf(deps, kind, input.url!)), settings };
}

/** What a PATCH changes of a subscription's destination, checked against its kind (which never changes). */
export async function destinationPatch(
  deps: Deps,
  kindName: WebhookRow['kind'],
  input: UpdateWebhookInput,
): Promise<Partial<Destination>> {
  const kind = kindNamed(kindName);
  const given = input as Record<string, unknown>;
  const foreign = KIND_FIELDS.find((f) => given[f.name] !== undefined && !kind.fields.includes(f));
  if (foreign) throw fieldError(foreign.name, `not a field of kind ${kind.name}`);
  const changed = settingsOf(kind, given);
  // Merged in the statement (jsonb ||), so two PATCHes of different fields both land.
  const patch: Partial<Destination> = Object.keys(changed).length
    ? { settings: deps.db.raw('settings || ?::jsonb', [JSON.stringify(changed)]) as unknown as Destination['settings'] }
    : {};
  // A poll subscription has no URL to change (refused before this, naming url).
  if (input.url === undefined || kind.url === 'none') return patch;
  return { ...patch, ...(await urlOf(deps, kind, input.url)) };
}
