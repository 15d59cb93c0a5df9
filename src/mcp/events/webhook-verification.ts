import { randomBytes } from 'node:crypto';
import type { Deps } from '../../app/deps.js';
import { postControl, type McpTarget } from '../../delivery/mcp-control.js';
import { callbackFailureOf } from '../../delivery/mcp-occurrence.js';
import { safeEqual } from '../../platform/crypto.js';
import { callbackEndpointError } from './webhook-errors.js';

// The verification handshake (docs/mcp-events-webhook.md#verification): before a principal's first live
// subscription to a URL, that URL proves it wants deliveries by echoing a single-use challenge in a 2xx body.
// Without it anyone could point deliveries at a victim's URL. Sent through the same SSRF-safe client as
// deliveries (the address judged at connect, no redirects); a failure says only its category.

/** Throws -32015 with data.reason unless the endpoint echoes the challenge. */
export async function verifyEndpoint(deps: Deps, target: McpTarget): Promise<void> {
  const challenge = randomBytes(24).toString('base64url');
  const res = await postControl(deps, target, { type: 'verification', challenge });
  if (!res.ok) throw callbackEndpointError(callbackFailureOf(res));
  let echoed: unknown;
  try {
    echoed = (JSON.parse(res.body) as { challenge?: unknown }).challenge;
  } catch {
    echoed = undefined;
  }
  if (typeof echoed !== 'string' || !safeEqual(echoed, challenge)) throw callbackEndpointError('challenge_failed');
}
