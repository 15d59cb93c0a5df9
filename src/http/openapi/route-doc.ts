import type { z } from 'zod';
import type { ErrorCode } from '../../platform/errors.js';

/** The tags of the document, in the order a reader meets them. */
export const TAGS = {
  Auth: 'Sign up, log in, the account and its team',
  Keys: 'Account keys and per-agent keys',
  Agents: 'Agents and the per-agent REST surface',
  Contacts: 'Contacts',
  Inboxes: 'Inboxes and inbound messages',
  Messages: 'Messages, drafts and conversations',
  Domains: 'Sending domains',
  Integrations: 'Connected integrations',
  Webhooks: 'Webhook subscriptions, deliveries and attempts',
  Events: 'The event catalog and the feed',
  Account: 'Billing, stats, logs and notifications',
  MCP: 'Model Context Protocol endpoints (Streamable HTTP)',
  OAuth: 'OAuth grants and protected-resource metadata',
  Meta: 'Health and this document',
} as const;
export type Tag = keyof typeof TAGS;

/**
 * What the OpenAPI document says about one route, given where it is registered (src/http/routes/*). Path
 * parameters, credentials, scopes and the errors every route of its kind can answer are derived from the path
 * and the access declaration; this names what only the route knows.
 */
export interface RouteDoc {
  /**
   * The operation's name in generated clients: a verb and its object (`createWebhook`, `listWebhookDeliveries`),
   * unique in the document (the generator refuses a route without one, or a name used twice).
   */
  operationId: string;
  summary: string;
  tag: Tag;
  description?: string;
  /** The query schema the handler parses with (each property becomes a query parameter). */
  query?: z.ZodObject;
  /** The JSON body schema the handler (or its service) parses with. */
  body?: z.ZodType;
  /** The body may be left out (e.g. enable without recoverSince). */
  bodyOptional?: boolean;
  /** Overrides the requirements derived from the access declaration (a public route with its own token). */
  security?: Array<Record<string, string[]>>;
  /** Request headers the route reads besides Authorization (e.g. X-Inbound-Token). */
  headers?: Record<string, { description: string; required: boolean }>;
  /** The success body's schema; null for an empty answer (204). */
  response: z.ZodType | null;
  /** Success statuses; default 200, or 204 when `response` is null. */
  status?: number | number[];
  /** Answers in another shape than docs/adr/0001-error-shape.md, by status (the MCP transport's JSON-RPC errors). */
  otherResponses?: Record<number, { description: string; schema: z.ZodType }>;
  /** Codes this route answers beyond those its access, parameters, body and idempotency bring. */
  errors?: ErrorCode[];
  /** Money-spending: charges credits (402), and uncapped keys are rate-limited (429 with RateLimit-* headers). */
  spends?: boolean;
  examples?: { request?: unknown; response?: unknown };
}
