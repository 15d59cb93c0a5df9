import { createHash } from 'node:crypto';
import { findAgent } from '../../agents/agents.repository.js';
import type { Deps } from '../../app/deps.js';
import type { KeyPrincipal, Principal } from '../../auth/principal.js';
import { eventCursor } from '../../delivery/mcp-occurrence.js';
import { signingKey } from '../../delivery/sign.js';
import { findInbox } from '../../inboxes/inboxes.repository.js';
import { iso, now } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { checkTargetUrl } from '../../platform/http-client.js';
import { newId } from '../../platform/ids.js';
import { isUniqueViolation } from '../../platform/pg-errors.js';
import {
  EventsError,
  forbidden,
  invalidParams,
  resourceExhausted,
  unknownSubscription,
  unsupported,
} from './errors.js';
import { readEventArguments } from './context.js';
import { readSubscribeParams, readUnsubscribeParams } from './webhook-params.js';
import {
  countLiveOfPrincipal,
  deleteMcpWebhook,
  findMcpWebhook,
  hasLiveToUrl,
  insertMcpWebhook,
  isLive,
  oldestPendingAt,
  refreshMcpWebhook,
  type McpWebhookRow,
} from './webhook-repository.js';
import { deliveryStatusOf } from './webhook-status.js';
import { verifyEndpoint } from './webhook-verification.js';

// events/subscribe and events/unsubscribe (docs/mcp-events.md#webhook-mode): a subscription is a webhooks row the
// delivery engine sends, keyed by the id derived from (principal, url, name, arguments).

export interface WebhookCaller {
  deps: Deps;
  principal: Principal;
  endpoint: EventsEndpoint;
}

/** How the previous secret keeps signing after a refresh replaced it (the sketch's dual-sign grace window). */
const SECRET_OVERLAP_MS = 5 * 60_000;

/** The principal's canonical id: its API key's, or its OAuth grant's. A session cannot hold a subscription. */
function principalOf(principal: Principal): { key: KeyPrincipal; id: string } {
  if (principal.type !== 'key') {
    throw forbidden('webhook subscriptions need an API key or an OAuth access token: a session ends with its browser');
  }
  return { key: principal, id: principal.oauth ? `grant:${principal.oauth.grantId}` : `key:${principal.keyId}` };
}

/** The sketch's derived id: deterministic over the key, a routing handle and never a capability. */
export function subscriptionIdOf(principal: string, url: string, name: string, args: Record<string, string>): string {
  const key = JSON.stringify([principal, url, name, args]);
  return `sub_${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The endpoint a request came in on: the account's, or one agent's (its per-agent key). */
export type EventsEndpoint = { kind: 'account' } | { kind: 'agent'; agentId: string };

/**
 * The event and its arguments as poll and push read them (context.ts readEventArguments: the same catalog, scopes
 * and filter), every entity the arguments name the account's (and on a per-agent endpoint that agent's).
 */
async function readSubscription(caller: WebhookCaller, key: KeyPrincipal, name: string, args: unknown) {
  const agentId = caller.endpoint.kind === 'agent' ? caller.endpoint.agentId : null;
  const read = readEventArguments({ principal: key, agentId }, name, args);
  await checkNamedEntities(caller, key, read.arguments);
  return { canonical: read.arguments, filter: read.filter };
}

/** An agent or inbox an argument names must be the account's, and on a per-agent endpoint that agent's. */
async function checkNamedEntities(
  caller: WebhookCaller,
  key: KeyPrincipal,
  args: Record<string, string>,
): Promise<void> {
  const { db } = caller.deps;
  const { agentId, inboxId } = args;
  const onlyAgent = caller.endpoint.kind === 'agent' ? caller.endpoint.agentId : null;
  if (agentId !== undefined) {
    const agent = await findAgent(db, key.accountId, agentId);
    if (!agent || (onlyAgent && agentId !== onlyAgent)) throw forbidden(`agent ${agentId} is not yours to watch`);
  }
  if (inboxId !== undefined) {
    const inbox = await findInbox(db, key.accountId, inboxId);
    if (!inbox || (onlyAgent && inbox.agent_id !== onlyAgent))
      throw forbidden(`inbox ${inboxId} is not yours to watch`);
  }
}

/** The TTL granted for a suggestion: the default when none, clamped to the floor and ceiling; null when allowed. */
function grantOf(deps: Deps, ttlMs: number | null | undefined, at: Date): Date | null {
  const { ttlDefaultMs, ttlMinMs, ttlMaxMs, allowNoExpiry } = deps.config.mcp.webhook;
  if (ttlMs === null && allowNoExpiry) return null;
  const wanted = ttlMs === undefined ? ttlDefaultMs : ttlMs === null ? ttlMaxMs : ttlMs;
  return new Date(at.getTime() + Math.min(Math.max(wanted, ttlMinMs), ttlMaxMs));
}

/** The same address guard as every webhook URL, with https required (unless private targets are, in tests). */
async function checkCallbackUrl(deps: Deps, url: string): Promise<void> {
  if (!url.startsWith('https://') && !deps.config.webhooks.allowPrivateTargets) {
    throw invalidParams('delivery.url must use https://', { fields: [{ field: 'delivery.url', message: 'https' }] });
  }
  try {
    await checkTargetUrl(deps.config, url);
  } catch (err) {
    if (err instanceof AppError) {
      throw invalidParams(`delivery.url: ${err.message}`, {
        fields: [{ field: 'delivery.url', message: err.message }],
      });
    }
    throw err;
  }
}

/** The watermark: behind the oldest delivery still pending, else now (nothing unacknowledged is passed). */
async function watermarkOf(deps: Deps, row: McpWebhookRow): Promise<string> {
  const pending = await oldestPendingAt(deps.db, row.account_id, row.id);
  return eventCursor(pending ? new Date(pending.getTime() - 1) : now(), '');
}

export async function subscribe(caller: WebhookCaller, params: unknown) {
  const { deps } = caller;
  const { key, id: principal } = principalOf(caller.principal);
  const p = readSubscribeParams(params);
  if (p.delivery.mode === undefined) throw invalidParams('delivery.mode is required ("webhook")');
  const read = await readSubscription(caller, key, p.name, p.arguments);
  await checkCallbackUrl(deps, p.delivery.url);
  const id = subscriptionIdOf(principal, p.delivery.url, p.name, read.canonical);
  const at = now();
  const expiresAt = grantOf(deps, p.ttlMs, at);
  const sealer = deps.sealers.webhook;
  const existing = await findMcpWebhook(deps.db, key.accountId, id);
  const wasLive = existing !== undefined && isLive(existing, at);

  if (!wasLive) {
    const { limit } = deps.config.mcp.webhook;
    if ((await countLiveOfPrincipal(deps.db, key.accountId, principal)) >= limit) {
      throw resourceExhausted('subscriptions', limit);
    }
    if (!(await hasLiveToUrl(deps.db, key.accountId, principal, p.delivery.url))) {
      const target = { url: p.delivery.url, subscriptionId: id, keys: { current: signingKey(p.delivery.secret) } };
      await verifyEndpoint(deps, target);
    }
  }

  let row: McpWebhookRow | undefined;
  if (existing) {
    const sameSecret = sealer.open(existing.secret_sealed) === p.delivery.secret;
    row = await refreshMcpWebhook(deps.db, key.accountId, existing.id, {
      expiresAt,
      secretSealed: sameSecret ? existing.secret_sealed : sealer.seal(p.delivery.secret),
      previous:
        sameSecret || !wasLive
          ? null
          : { sealed: existing.secret_sealed, expiresAt: new Date(at.getTime() + SECRET_OVERLAP_MS) },
    });
  }
  const saved =
    row ??
    (await insertOrRefresh(caller, key.accountId, {
      id: newId('wh'),
      url: p.delivery.url,
      events: [p.name],
      description: `MCP events/subscribe (${principal})`,
      secret_sealed: sealer.seal(p.delivery.secret),
      filter: Object.keys(read.filter).length > 0 ? read.filter : null,
      mcp_subscription_id: id,
      mcp_principal: principal,
      mcp_arguments: read.canonical,
      expires_at: expiresAt,
    }));

  return {
    id,
    refreshBefore: iso(saved.expires_at),
    cursor: await watermarkOf(deps, saved),
    // A cursor is honoured only as a no-op against a live subscription: there is no replay, so a lapsed or new
    // subscription starts from now, and says so when the client asked for an earlier position.
    truncated: !wasLive && typeof p.cursor === 'string',
    ...(existing ? { deliveryStatus: await deliveryStatusOf(deps, existing, wasLive) } : {}),
  };
}

/** Two first subscribes of one key at once: the loser refreshes the winner's row. */
async function insertOrRefresh(caller: WebhookCaller, accountId: string, row: Parameters<typeof insertMcpWebhook>[2]) {
  try {
    return await insertMcpWebhook(caller.deps.db, accountId, row);
  } catch (err) {
    if (!isUniqueViolation(err, 'webhooks_mcp_subscription')) throw err;
    const winner = (await findMcpWebhook(caller.deps.db, accountId, row.mcp_subscription_id))!;
    const refreshed = await refreshMcpWebhook(caller.deps.db, accountId, winner.id, {
      expiresAt: row.expires_at,
      secretSealed: row.secret_sealed,
      previous: null,
    });
    return refreshed ?? winner;
  }
}

export async function unsubscribe(caller: WebhookCaller, params: unknown): Promise<Record<string, never>> {
  const { key, id: principal } = principalOf(caller.principal);
  const p = readUnsubscribeParams(params);
  const mode = (p.delivery as { mode?: unknown }).mode;
  if (mode !== undefined && mode !== 'webhook') throw unsupported('deliveryMode', mode);
  // The name and arguments are read as subscribe reads them, so that the same key derives the same id.
  const agentId = caller.endpoint.kind === 'agent' ? caller.endpoint.agentId : null;
  let id: string | null = null;
  try {
    const read = readEventArguments({ principal: key, agentId }, p.name, p.arguments);
    id = subscriptionIdOf(principal, p.delivery.url, p.name, read.arguments);
  } catch (err) {
    // An event or arguments no subscription could have been made with: no such subscription.
    if (!(err instanceof EventsError)) throw err;
  }
  if (!id || !(await deleteMcpWebhook(caller.deps.db, key.accountId, id))) {
    throw unknownSubscription('no subscription of yours has this name, arguments and delivery.url');
  }
  return {};
}
