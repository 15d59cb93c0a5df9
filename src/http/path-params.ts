import { z } from 'zod';
import { PROVIDERS } from '../integrations/integrations.schema.js';
import { notFound } from '../platform/errors.js';
import { hasIdShape, text, type IdKind } from '../platform/input.js';
import { parseInput } from '../platform/validation.js';

// A path parameter is judged by the collection segment before it, and named after it, one style everywhere:
// /v1/agents/:agentId is an agent id, .../runs/:runId a run id. The router looks every parameter up here when a
// route is registered, so a route whose parameter has no rule, or another name, cannot start, and every parameter
// is judged before a handler (or a query) sees it.

export interface ParamRule {
  /** The parameter's name in every route (`agentId`), as generated clients see it. */
  name: string;
  what: string;
  accepts: (value: string) => boolean;
  /** The same rule as JSON Schema, for the OpenAPI document. */
  schema: Record<string, unknown>;
}

const id = (name: string, what: string, kind: IdKind): ParamRule => ({
  name,
  what,
  accepts: (v) => hasIdShape(kind, v),
  schema:
    kind === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string', pattern: `^${kind}_[0-9A-Za-z]{1,64}$` },
});

const RULES: Record<string, ParamRule> = {
  agents: id('agentId', 'Agent', 'agt'),
  runs: id('runId', 'Run', 'run'),
  contacts: id('contactId', 'Contact', 'ct'),
  inboxes: id('inboxId', 'Inbox', 'inb'),
  inbound: id('inboxId', 'Inbox', 'inb'),
  messages: id('messageId', 'Message', 'msg'),
  domains: id('domainId', 'Domain', 'dom'),
  api_keys: id('keyId', 'API key', 'key'),
  webhooks: id('webhookId', 'Webhook', 'wh'),
  'webhook-streams': id('webhookId', 'Stream', 'wh'),
  deliveries: id('deliveryId', 'Delivery', 'uuid'),
  grants: id('grantId', 'OAuth grant', 'ogr'),
  'portal-links': id('linkId', 'Portal link', 'plk'),
  integrations: {
    name: 'provider',
    what: 'Integration provider',
    accepts: (v) => (PROVIDERS as readonly string[]).includes(v),
    schema: { type: 'string', enum: [...PROVIDERS] },
  },
};

/** The rule of each parameter of a route path. Throws for a parameter no rule covers: a bug, found at start-up. */
export function paramRulesFor(path: string): ParamRule[] {
  const segments = path.split('/');
  return segments.flatMap((segment, i) => {
    if (!segment.startsWith(':')) return [];
    const rule = RULES[segments[i - 1] ?? ''];
    if (!rule)
      throw new Error(
        `${path}: no rule for the path parameter ${segment}; add its collection to src/http/path-params.ts`,
      );
    if (segment.slice(1) !== rule.name) {
      throw new Error(`${path}: the path parameter ${segment} is named :${rule.name} in every route`);
    }
    return [rule];
  });
}

/**
 * Judges a request's path parameters: text Postgres cannot store is a 400 validation_error naming the parameter
 * (the rule for all text); any other value of the wrong shape cannot name a record, so it is 404 not_found.
 */
export function checkParams(rules: ParamRule[], params: Record<string, string>): void {
  for (const rule of rules) {
    const value = params[rule.name] ?? '';
    parseInput(z.object({ [rule.name]: text() }), { [rule.name]: value });
    if (!rule.accepts(value)) throw notFound(rule.what);
  }
}
