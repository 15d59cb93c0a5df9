import { EVENT_TYPES } from '../../events/event-types.js';
import type { Webhook, WebhookStats } from './api-types.js';
import { destinationText } from './destination-view.js';
import { html, type SafeHtml } from './html.js';
import { dataTable, when } from './views.js';

// The subscriptions list: each subscription with how it is doing over the last 24 hours (GET /v1/webhooks/:id/stats),
// its filter, and its events, the planned ones marked as such (nothing emits them yet).

export interface ListedWebhook {
  webhook: Webhook;
  /** Null when the stats could not be read: the row shows the subscription without its health. */
  stats: WebhookStats | null;
}

/** One word for how a subscription is doing: the first of disabled, failing (its latest attempt failed), idle, healthy. */
export function healthState(
  w: Webhook,
  s: WebhookStats | null,
): 'disabled' | 'failing' | 'idle' | 'healthy' | 'unknown' {
  if (w.status === 'disabled') return 'disabled';
  if (!s) return 'unknown';
  const failedLast = s.lastFailureAt !== null && (s.lastSuccessAt === null || s.lastFailureAt > s.lastSuccessAt);
  if (s.consecutiveFailures.deliveries > 0 || failedLast) return 'failing';
  return s.attempts === 0 ? 'idle' : 'healthy';
}

const lastOf = (s: WebhookStats): string | null =>
  [s.lastSuccessAt, s.lastFailureAt]
    .filter((t): t is string => t !== null)
    .sort()
    .at(-1) ?? null;

function healthCell(w: Webhook, s: WebhookStats | null): SafeHtml {
  const state = healthState(w, s);
  const rate = s?.successRate === null || !s ? '—' : `${(s.successRate * 100).toFixed(1)}%`;
  const last = s ? lastOf(s) : null;
  return html`<span class="health-${state}" data-health="${state}">${state}</span>
    <div><b data-success-rate>${rate}</b> <span class="muted">of ${s?.attempts ?? '—'} attempts</span></div>
    <div class="muted" data-last-delivery>last delivery ${when(last)}</div>`;
}

/** Each event name, a planned one (nothing emits it yet) marked. */
export function eventNames(events: string[]): SafeHtml {
  const planned = (e: string) => (EVENT_TYPES as Record<string, { status: string }>)[e]?.status === 'planned';
  return html`${events.map(
    (e, i) =>
      html`${i ? ', ' : ''}${
        planned(e)
          ? html`<span class="planned" data-planned title="planned: nothing emits it yet"
              >${e} <small>planned</small></span
            >`
          : e
      }`,
  )}`;
}

const filterCell = (filter: Webhook['filter']) =>
  filter ? html`<code data-filter>${JSON.stringify(filter)}</code>` : html`<span class="muted">none</span>`;

/** An MCP Events subscription (docs/mcp-events-webhook.md): who made it, and until when it delivers. */
const mcpLine = (mcp: Webhook['mcp']) =>
  mcp
    ? html`<div class="muted" data-mcp>
        MCP events/subscribe by ${mcp.principal} · ${mcp.expiresAt ? `expires ${mcp.expiresAt}` : 'no expiry'}
      </div>`
    : '';

export function subscriptionsTable(listed: ListedWebhook[]): SafeHtml {
  const rows = listed.map(
    ({ webhook: w, stats }) =>
      html`<tr data-webhook="${w.id}">
        <td>
          <a href="/dashboard/webhooks/${w.id}">${destinationText(w)}</a>
          <div class="muted">${w.id} · ${w.kind}</div>
          ${mcpLine(w.mcp)}
        </td>
        <td>${eventNames(w.events)}</td>
        <td>${filterCell(w.filter)}</td>
        <td>${healthCell(w, stats)}</td>
        <td>${w.rateLimitPerSecond ?? 'unthrottled'}</td>
        <td>${w.tenant ?? '—'}</td>
      </tr>`,
  );
  const headers = ['Destination', 'Events', 'Filter', 'Health, 24 h', 'Throttle (/s)', 'Tenant'];
  return dataTable(headers, rows, 'No subscriptions yet.');
}
