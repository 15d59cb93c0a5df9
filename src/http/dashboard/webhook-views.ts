import { EVENT_NAMES } from '../../events/event-types.js';
import { http } from '../../delivery/kinds/http.js';
import { CREATED_KINDS, isKind, KIND_FIELDS, kindNamed } from '../../delivery/kinds/registry.js';
import type { ApiError } from './api-client.js';
import type { Delivery, Webhook, WebhookStats } from './api-types.js';
import { deliveriesTable } from './delivery-views.js';
import { eventNames, subscriptionsTable, type ListedWebhook } from './webhook-list.js';
import { destinationText } from './destination-view.js';
import { html, trusted, type SafeHtml } from './html.js';
import {
  actionButton,
  badge,
  checkboxes,
  csrfField,
  formError,
  notice,
  textField,
  when,
  type Viewer,
} from './views.js';

// The subscriptions pages: the list with its create form, one subscription with its health and deliveries
// (delivery-views.ts), and the page that shows a new signing key: a secret once, or an ed25519 public key.

export interface CreateForm {
  kind?: CreatedKind;
  url?: string;
  /** The chosen kind's own fields (src/delivery/kinds), as typed. */
  fields?: Record<string, string>;
  events?: string[];
  rateLimitPerSecond?: string;
  tenant?: string;
  signatureScheme?: string;
  error?: ApiError | null;
}

/** The signature scheme field of a create form (docs/webhook-signatures.md#signature-schemes). */
export const schemeSelect = (chosen: string | undefined) =>
  html`<label for="signatureScheme">Signature scheme</label
    ><select id="signatureScheme" name="signatureScheme">
      <option value="hmac-sha256" ${chosen === 'ed25519' ? '' : ' selected'}>hmac-sha256 (a shared secret)</option>
      <option value="ed25519" ${chosen === 'ed25519' ? ' selected' : ''}>ed25519 (a public key verifies)</option>
    </select>`;

/** How a subscription signs: its scheme, its public key, and the previous key while it still signs. */
export function signingSummary(w: Webhook): SafeHtml {
  const key = w.publicKey ? html` · public key <code data-public-key>${w.publicKey}</code>` : '';
  const previous = w.previousSecretExpiresAt
    ? html`<div class="muted" data-previous-key>
        The previous key signs too until
        ${when(w.previousSecretExpiresAt)}${w.previousPublicKey ? html` (<code>${w.previousPublicKey}</code>)` : ''}
      </div>`
    : '';
  return html`<span data-signature-scheme>${w.signatureScheme}</span>${key}${previous}`;
}

/** The kinds a create form makes (a stream subscription is made by `switchboard listen`), from the registry. */
export const CREATED_KIND_NAMES: readonly string[] = CREATED_KINDS.map((k) => k.name);
export type CreatedKind = string;

/**
 * The destination part of a create form: a kind, then the fields that kind takes (docs/webhooks.md#destination-kinds),
 * as each kind's module declares them. The page has no script: the stylesheet shows a kind's own fields when its
 * radio is chosen (`.kind-only`, layout.ts), and a browser without `:has()` shows them all, each labelled with its
 * kind; the route sends only the chosen kind's.
 */
function destinationFields(form: CreateForm): SafeHtml {
  const chosen = kindNamed(CREATED_KIND_NAMES.includes(form.kind ?? '') ? form.kind! : 'http');
  const withUrl = CREATED_KINDS.filter((k) => k.url !== 'none');
  const urlForms = withUrl.map((k) => `${k.name}: ${k.urlForm ?? ''}`);
  const without = CREATED_KINDS.filter((k) => k.url === 'none').map((k) => `${k.name}: none`);
  return html`<fieldset data-kinds>
      <legend>Destination kind</legend>
      ${CREATED_KINDS.map(
        (k) =>
          html`<label class="choice"
            ><input type="radio" name="kind" value="${k.name}" ${k === chosen ? ' checked' : ''} /> ${kindLabel(
              k.name,
            )}</label
          >`,
      )}
    </fieldset>
    <div class="kind-url">
      ${textField({
        id: 'url',
        label: `URL (${[...urlForms, ...without].join('; ')})`,
        value: form.url ?? '',
        placeholder: (chosen.urlPlaceholder ?? http.urlPlaceholder)!,
        error: form.error,
      })}
    </div>
    ${CREATED_KINDS.filter((k) => k.fields.length).map(
      (k) =>
        html`<div class="kind-only kind-${k.name}">
          ${k.fields.map((f) =>
            textField({
              id: f.name,
              label: f.label,
              value: form.fields?.[f.name] ?? '',
              placeholder: f.placeholder,
              error: form.error,
            }),
          )}
        </div>`,
    )}`;
}

export function webhooksPage(v: Viewer, listed: ListedWebhook[], form: CreateForm = {}): SafeHtml {
  return html`${subscriptionsTable(listed)}
    <h2>New subscription</h2>
    ${formError(form.error, [
      'url',
      ...KIND_FIELDS.map((f) => f.name),
      'events',
      'rateLimitPerSecond',
      'tenant',
      'signatureScheme',
    ])}
    <form method="post" action="/dashboard/webhooks" data-create>
      ${csrfField(v.csrf)} ${destinationFields(form)}
      ${checkboxes({
        legend: 'Events',
        name: 'events',
        values: EVENT_NAMES,
        chosen: form.events ?? [],
        error: form.error,
        label: (e) => eventNames([e]),
      })}
      ${textField({
        id: 'rate',
        name: 'rateLimitPerSecond',
        label: 'Throttle, deliveries per second (empty: none)',
        value: form.rateLimitPerSecond ?? '',
        error: form.error,
      })}
      ${textField({
        id: 'tenant',
        label: 'Tenant (optional: the customer a portal link may hand this subscription to)',
        value: form.tenant ?? '',
        error: form.error,
      })}
      ${schemeSelect(form.signatureScheme)}
      <p><button type="submit">Create subscription</button></p>
    </form>`;
}

/** How the subscription's deliveries reach it (docs/webhooks.md): its kind's own sentence. */
export const kindLabel = (kind: string): string => (isKind(kind) ? `${kind}: ${kindNamed(kind).label}` : kind);

/** A new signing key and what the receiver needs of it. */
export interface ShownKey {
  /** A whsec_, shown once. */
  secret: string | null;
  /** An ed25519 whpk_: public, readable on the subscription's page at any time. */
  publicKey: string | null;
  /** A poll subscription's whpoll_ credential, shown once with its secret. */
  pollCredential?: string | null;
}

/** A new signing key: a secret shown once, or an ed25519 public key; `back` is the subscription's page. */
export function secretPage(back: string, key: ShownKey, what: string): SafeHtml {
  const shown = key.secret
    ? html`<p>${what} Copy the signing secret now: it is shown this once and cannot be read again.</p>
        <p class="secret" data-secret>${key.secret}</p>`
    : html`<p>
          ${what} Deliveries are signed with ed25519: give your receiver this public key to verify them. It is not a
          secret, and the subscription's page shows it at any time; the key that signs never leaves Switchboard.
        </p>
        <p class="secret" data-public-key>${key.publicKey ?? ''}</p>`;
  const poll = key.pollCredential
    ? html`<p>
          Its consumer polls with this credential (<code>Authorization: Bearer …</code>), which reads this subscription
          and nothing else; it too is shown this once.
        </p>
        <p class="secret" data-poll-credential>${key.pollCredential}</p>`
    : '';
  return html`${shown}${poll}
    <p><a href="${back}">Back to the subscription</a></p>`;
}

export interface DetailData {
  webhook: Webhook;
  stats: WebhookStats;
  chart: string;
  deliveries: Delivery[];
  filter: { status?: string; event?: string };
  notice?: string | null;
  enableError?: ApiError | null;
}

/** One of the deliveries' filters; the empty option is "any". */
const filterSelect = (id: string, name: string, label: string, options: string[], chosen: string | undefined) =>
  html`<label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${options.map((o) => html`<option value="${o}" ${chosen === o ? ' selected' : ''}>${o || 'any'}</option>`)}
    </select>`;

const pct = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
const ms = (n: number | null) => (n === null ? '—' : `${n} ms`);

export function webhookPage(v: Viewer, d: DetailData): SafeHtml {
  const w = d.webhook;
  const base = `/dashboard/webhooks/${w.id}`;
  const s = d.stats;
  const enable =
    w.status === 'disabled'
      ? html`<h2>Re-enable</h2>
          ${formError(d.enableError, ['recoverSince'])}
          <form method="post" action="${base}/enable">
            ${csrfField(v.csrf)}
            ${textField({
              id: 'recoverSince',
              label: 'Recover since… (optional, UTC: deliveries that failed since then are queued again)',
              placeholder: '2026-11-24T08:00:00Z',
              error: d.enableError,
            })}
            <p><button type="submit">Enable</button></p>
          </form>`
      : html``;
  const statuses = ['', 'pending', 'succeeded', 'failed', 'exhausted'];
  const events = ['', ...w.events, 'webhook.test'];
  return html`${notice(d.notice)}
    <table>
      <tbody>
        <tr>
          <th>Kind</th>
          <td>${kindLabel(w.kind)}</td>
        </tr>
        <tr>
          <th>Destination</th>
          <td>${destinationText(w)}</td>
        </tr>
        <tr>
          <th>Events</th>
          <td>${w.events.join(', ')}</td>
        </tr>
        <tr>
          <th>Status</th>
          <td>
            ${badge(w.status)}${w.disabledReason ? html` <span class="muted">${w.disabledReason} at ${when(w.disabledAt)}</span>` : ''}
          </td>
        </tr>
        <tr>
          <th>Throttle</th>
          <td>${w.rateLimitPerSecond ? `${w.rateLimitPerSecond} per second` : 'unthrottled'}</td>
        </tr>
        <tr>
          <th>Filter</th>
          <td>${w.filter ? html`<code data-field="filter">${JSON.stringify(w.filter)}</code>` : 'every event'}</td>
        </tr>
        <tr>
          <th>Tenant</th>
          <td>${w.tenant ?? '—'}</td>
        </tr>
        <tr>
          <th>Signing</th>
          <td>${signingSummary(w)}</td>
        </tr>
        <tr>
          <th>Id</th>
          <td><code>${w.id}</code></td>
        </tr>
      </tbody>
    </table>
    <div>
      ${actionButton(`${base}/test`, 'Send a test event', v.csrf)}${actionButton(`${base}/rotate-secret`, 'Rotate secret', v.csrf)}
      ${w.status === 'active' ? actionButton(`${base}/disable`, 'Disable', v.csrf) : ''}
    </div>
    ${enable}
    <h2>Health, last 24 hours</h2>
    <div class="grid">
      <div class="stat">Success rate<b data-stat="successRate">${pct(s.successRate)}</b></div>
      <div class="stat">Attempts<b data-stat="attempts">${s.attempts}</b></div>
      <div class="stat">p50 latency<b>${ms(s.durationMs.p50)}</b></div>
      <div class="stat">p95 latency<b>${ms(s.durationMs.p95)}</b></div>
    </div>
    <p><img class="chart" alt="Attempts per 5-minute bucket" src="${trusted(d.chart)}" /></p>
    <h2>Recent deliveries</h2>
    <form method="get" action="${base}">
      ${filterSelect('fstatus', 'status', 'Status', statuses, d.filter.status)}
      ${filterSelect('fevent', 'event', 'Event', events, d.filter.event)}
      <button type="submit" class="secondary">Filter</button>
    </form>
    ${deliveriesTable(base, d.deliveries, { lastAnswer: true, empty: 'No deliveries match.' })}`;
}
