import { z } from 'zod';
import { PROVIDERS } from '../integrations/integrations.schema.js';
import { notFound } from '../platform/errors.js';
import { hasIdShape, text, type IdKind } from '../platform/input.js';
import { parseInput } from '../platform/validation.js';

// A path parameter is named by the collection segment before it: /v1/agents/:id is an agent id, .../runs/:runId
// a run id. The router looks every parameter up here when a route is registered, so a route whose parameter has
// no rule cannot start, and every parameter is judged before a handler (or a query) sees it.

interface Rule {
  what: string;
  accepts: (value: string) => boolean;
  /** The same rule as JSON Schema, for the OpenAPI document. */
  schema: Record<string, unknown>;
}

const id = (what: string, kind: IdKind): Rule => ({
  what,
  accepts: (v) => hasIdShape(kind, v),
  schema: kind === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string', pattern: `^${kind}_[0-9A-Za-z]{1,64}$` },
});

const RULES: Record<string, Rule> = {
  agents: id('Agent', 'agt'),
  runs: id('Run', 'run'),
  contacts: id('Contact', 'ct'),
  inboxes: id('Inbox', 'inb'),
  inbound: id('Inbox', 'inb'),
  messages: id('Message', 'msg'),
  domains: id('Domain', 'dom'),
  api_keys: id('API key', 'key'),
  webhooks: id('Webhook', 'wh'),
  deliveries: id('Delivery', 'uuid'),
  grants: id('OAuth grant', 'ogr'),
  integrations: { what: 'Integration provider', accepts: (v) => (PROVIDERS as readonly string[]).includes(v), schema: { type: 'string', enum: [...PROVIDERS] } },
};

export interface ParamRule extends Rule {
  name: string;
}

/** The rule of each parameter of a route path. Throws for a parameter no rule covers: a bug, found at start-up. */
export function paramRulesFor(path: string): ParamRule[] {
  const segments = path.split('/');
  return segments.flatMap((segment, i) => {
    if (!segment.startsWith(':')) return [];
    const rule = RULES[segments[i - 1] ?? ''];
    if (!rule) throw new Error(`${path}: no rule for the path parameter ${segment}; add its collection to src/http/path-params.ts`);
    return [{ name: segment.slice(1), ...rule }];
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
