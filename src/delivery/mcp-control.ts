import type { Deps } from '../app/deps.js';
import { now } from '../platform/clock.js';
import type { SafeResponse } from '../platform/http-client.js';
import { controlMessageId, mcpHeaders } from './mcp-occurrence.js';
import type { SigningKeys } from './sign.js';
import type { SendContext } from './sql/load.js';

// The MCP Events control bodies (docs/mcp-events-webhook.md#control-bodies): a verification challenge before a
// subscription to an unverified (principal, url) is made, and `terminated` when a subscription ends on the
// server's side. Signed and headed like event deliveries, sent once through the same SSRF-safe client (never
// following redirects): a control body is not an event and has no delivery row to retry.

export interface McpTarget {
  url: string;
  subscriptionId: string;
  keys: SigningKeys;
}

/** The `error` of a terminated body: the JSON-RPC error the subscription ended with. */
export interface TerminatedError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

export function postControl(deps: Deps, target: McpTarget, body: Record<string, unknown> & { type: string }) {
  const raw = JSON.stringify(body);
  const headers = mcpHeaders(controlMessageId(body.type), target.subscriptionId, raw, now(), target.keys);
  return deps.http.post(target.url, raw, headers);
}

/** The target of a delivery's subscription, its current secret (and the previous one while it overlaps). */
export function targetOf(deps: Deps, ctx: SendContext): McpTarget {
  const at = now();
  const previousValid =
    ctx.previous_secret_sealed && ctx.previous_secret_expires_at && new Date(ctx.previous_secret_expires_at) > at;
  return {
    url: ctx.url,
    subscriptionId: ctx.mcp_subscription_id!,
    keys: {
      current: deps.webhookKeys.keyOf(ctx.secret_sealed),
      previous: previousValid ? deps.webhookKeys.keyOf(ctx.previous_secret_sealed!) : null,
    },
  };
}

/** Tells the subscription's endpoint it has ended; best effort (the subscription has ended all the same). */
export async function sendTerminated(deps: Deps, ctx: SendContext, error: TerminatedError): Promise<void> {
  const res: SafeResponse = await postControl(deps, targetOf(deps, ctx), { type: 'terminated', error });
  if (!res.ok) {
    deps.logger.info(
      { webhookId: ctx.webhook_id, error: res.error, status: res.status },
      'MCP terminated body not accepted',
    );
  }
}
