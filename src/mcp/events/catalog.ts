import { z } from 'zod';
import { scopeSatisfies, type AccountScope, type AgentScope } from '../../auth/scopes.js';
import type { Principal } from '../../auth/principal.js';
import { EVENT_TYPES, type EventType } from '../../events/event-types.js';
import { payloadJsonSchema } from '../../feed/event-schemas.js';
import { text } from '../../platform/input.js';
import { DELIVERY_MODES } from './delivery-modes.js';

// Which event types each MCP endpoint offers, who may see them, and the subscription arguments of each
// (docs/mcp-events.md#event-types-per-endpoint). An argument is a payload field an event must equal: the arguments become a
// subscription filter (docs/adr/0087-subscription-filters.md) of plain equalities, evaluated by the same
// sb_filter_matches the webhook fan-out uses.

/** An argument: its payload path, and its description in the inputSchema. */
interface Argument {
  path: string;
  description: string;
}

interface Rule {
  /** The account scope an account key or OAuth token needs to see the type on /v1/mcp. */
  scope: AccountScope;
  /** On /v1/agents/:agentId/mcp: the agent scope it needs and the payload path naming the agent; null: not offered. */
  agent: { scope: AgentScope; path: string } | null;
  /** Arguments on both endpoints; `agentId` is added on the account endpoint where the agent path exists. */
  args: Record<string, Argument>;
}

const inbox = { path: 'inboxId', description: 'Only events of this inbox (inb_…)' };
const conversation = { path: 'conversationId', description: 'Only messages of this conversation (conv_…)' };
const from = { path: 'from', description: 'Only messages from this exact address or number, as the payload has it' };
const messageRule: Rule = {
  scope: 'read:messages',
  agent: { scope: 'agent:conversations:read', path: 'agentId' },
  args: { inboxId: inbox, conversationId: conversation, from },
};
const inboxRule: Rule = {
  scope: 'read:inboxes',
  agent: { scope: 'agent:config:read', path: 'agentId' },
  args: { inboxId: { path: 'id', description: 'Only this inbox (inb_…)' } },
};
const keyRule: Rule = {
  scope: 'read:api_keys',
  agent: { scope: 'agent:config:read', path: 'agentId' },
  args: { keyId: { path: 'keyId', description: 'Only events of this key (key_…)' } },
};
const webhookRule: Rule = {
  scope: 'read:webhooks',
  agent: null,
  args: { webhookId: { path: 'webhookId', description: 'Only events of this subscription (wh_…)' } },
};
const contactRule: Rule = {
  scope: 'read:contacts',
  agent: null,
  args: { contactId: { path: 'id', description: 'Only this contact (con_…)' } },
};
const billingRule: Rule = { scope: 'read:billing', agent: null, args: {} };

const RULES: Partial<Record<EventType, Rule>> = {
  'message.received': messageRule,
  'message.sent': messageRule,
  'message.drafted': messageRule,
  'inbox.created': inboxRule,
  'inbox.deleted': inboxRule,
  'contact.created': contactRule,
  'contact.updated': contactRule,
  'agent.updated': { scope: 'read:agents', agent: { scope: 'agent:config:read', path: 'id' }, args: {} },
  'webhook.disabled': webhookRule,
  'webhook.delivery_exhausted': webhookRule,
  'api_key.expiring': keyRule,
  'api_key.expired': keyRule,
  'api_key.deactivated': keyRule,
  'api_key.spend_cap_reached': keyRule,
  'billing.credits_low': billingRule,
  'billing.credits_exhausted': billingRule,
};

/** Who asks, on which endpoint: `agentId` is set on the per-agent endpoint (its key's own agent). */
export interface EventsAudience {
  principal: Principal;
  agentId: string | null;
}

/** An event type as one audience may subscribe to it. */
export interface OfferedEvent {
  name: EventType;
  description: string;
  arguments: Record<string, Argument>;
  /** Payload equalities every event must meet whatever the arguments: the per-agent endpoint's own agent. */
  fixed: Record<string, string>;
}

function offeredTo(audience: EventsAudience, name: EventType, rule: Rule): OfferedEvent | null {
  const { principal, agentId } = audience;
  const description = EVENT_TYPES[name].description;
  if (agentId !== null) {
    if (!rule.agent || principal.type !== 'key' || !scopeSatisfies(principal.scopes, rule.agent.scope)) return null;
    return { name, description, arguments: rule.args, fixed: { [rule.agent.path]: agentId } };
  }
  if (principal.type === 'key' && !scopeSatisfies(principal.scopes, rule.scope)) return null;
  const byAgent: Record<string, Argument> = rule.agent
    ? { agentId: { path: rule.agent.path, description: 'Only events of this agent (agt_…)' } }
    : {};
  return { name, description, arguments: { ...byAgent, ...rule.args }, fixed: {} };
}

/** Is `name` an event type an endpoint could offer at all (to some credential)? */
export const isCatalogued = (name: string): name is EventType =>
  Object.hasOwn(RULES, name) && EVENT_TYPES[name as EventType].status === 'emitted';

/** Every event type the audience may subscribe to, by name. */
export function offeredEvents(audience: EventsAudience): OfferedEvent[] {
  const offered: OfferedEvent[] = [];
  for (const [name, rule] of Object.entries(RULES) as Array<[EventType, Rule]>) {
    if (!isCatalogued(name)) continue;
    const event = offeredTo(audience, name, rule);
    if (event) offered.push(event);
  }
  return offered.sort((a, b) => a.name.localeCompare(b.name));
}

/** The one event type, if the audience may subscribe to it (null: not offered to it, though catalogued). */
export function offeredEvent(audience: EventsAudience, name: EventType): OfferedEvent | null {
  return offeredTo(audience, name, RULES[name]!);
}

/** The arguments' schema: strict, every field an optional identifier string. */
export function argumentsSchema(event: OfferedEvent) {
  const shape = Object.fromEntries(
    Object.entries(event.arguments).map(([key, arg]) => [
      key,
      text().min(1).max(254).optional().describe(arg.description),
    ]),
  );
  return z.object(shape).strict();
}

/** The descriptor events/list answers. */
export function describeEvent(event: OfferedEvent) {
  return {
    name: event.name,
    description: event.description,
    delivery: [...DELIVERY_MODES],
    inputSchema: z.toJSONSchema(argumentsSchema(event), { target: 'draft-7', io: 'input' }),
    payloadSchema: payloadJsonSchema(event.name),
  };
}

/** The filter (ADR 0087) the subscription's arguments and the audience's fixed fields make. */
export function filterOf(event: OfferedEvent, args: Record<string, string | undefined>): Record<string, string> {
  const filter: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value !== undefined) filter[event.arguments[key]!.path] = value;
  }
  // Last, so that no argument can widen what the audience sees.
  return { ...filter, ...event.fixed };
}
