import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerCapabilities,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { authorize, type Access } from '../auth/access.js';
import type { Caller } from '../auth/principal.js';
import type { Deps } from '../app/deps.js';
import type { Logger } from '../platform/logger.js';
import { AppError } from '../platform/errors.js';
import { describeRefusedInput, isRefusedInput, refusedInputError } from '../platform/pg-errors.js';
import { registerWebhookMethods } from './events/webhook-methods.js';

/** What every tool handler receives: the same inputs a REST handler has; it is the caller of the services. */
export interface ToolContext extends Caller {
  deps: Deps;
  ip: string;
  /** The request's logger (carries the request id). */
  log: Logger;
  /** The path parameters the access rule is checked against, e.g. `{ agentId }` on the per-agent endpoint. */
  params: Record<string, string>;
}

/**
 * One MCP tool. `access` is the very declaration of the REST route the tool mirrors, so the scope rule is
 * `authorize()` itself: no second implementation of it exists for MCP. `output` is that route's `response` schema
 * (docs/mcp.md#tools): the tool's outputSchema, which the SDK checks every successful result against.
 */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  access: Access;
  input: S;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(ctx: ToolContext, args: z.output<S>): Promise<unknown>;
}

export const defineTool = <S extends z.ZodObject>(tool: McpTool<S>): McpTool => tool as unknown as McpTool;

export const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const destructive: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
/** Writes that only add (a draft, a new agent): not destructive, but not read-only either. */
export const additive: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

function allows(ctx: ToolContext, tool: McpTool): boolean {
  try {
    authorize(ctx.principal, tool.access, ctx.params);
    return true;
  } catch {
    return false;
  }
}

/**
 * The insufficient_scope error an OAuth access token's `tools/call` would meet, before anything runs: the MCP
 * authorization spec's step-up answers it at the HTTP level (403 with a challenge naming the scope), so the client
 * can ask its user for the wider scope. An API key cannot be stepped up: its call runs into the same refusal as a
 * tool error naming the scope, which the model can read (docs/mcp.md#step-up-a-call-that-needs-a-scope-the-credential-lacks).
 * Null for anything else (other credentials, other methods, batches, unknown tools, other refusals).
 */
export function missingScopeOf(tools: McpTool[], ctx: ToolContext, body: unknown): AppError | null {
  if (ctx.principal.type !== 'key' || !ctx.principal.oauth) return null;
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  if (!message || typeof message !== 'object' || Array.isArray(message) || message.method !== 'tools/call') return null;
  const tool = tools.find((t) => t.name === message.params?.name);
  if (!tool) return null;
  try {
    authorize(ctx.principal, tool.access, ctx.params);
    return null;
  } catch (err) {
    return err instanceof AppError && err.code === 'insufficient_scope' ? err : null;
  }
}

/** Results carry the object as structuredContent and the same JSON as text, for clients that read only text. */
export function toolResult(value: unknown): CallToolResult {
  const structured = (
    value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { result: value }
  ) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

/** A service error becomes a tool error the model can read (docs/adr/0038-mcp-protocol-errors.md). */
export function toolError(err: AppError): CallToolResult {
  const error = { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  return {
    content: [{ type: 'text', text: `${err.code}: ${err.message}` }],
    structuredContent: { error },
    isError: true,
  };
}

function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) {
    const fields = err.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
    return new AppError('validation_error', 'The tool arguments are invalid', { fields });
  }
  return null;
}

/**
 * A tool's outputSchema as JSON Schema (draft-07, as the SDK emits). MCP wants `type: "object"` at the root, but
 * z.toJSONSchema writes a named schema (`.meta({ id })`, e.g. Agent) as a root `$ref` into `definitions`: that
 * definition is copied to the root (and kept, for any reference to it from inside).
 */
function objectJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  const { $ref: ref, ...rest } = json;
  if (typeof ref !== 'string') return json;
  const definitions = json.definitions as Record<string, Record<string, unknown>>;
  return { ...rest, ...definitions[ref.replace('#/definitions/', '')] };
}

/**
 * `events`: the MCP Events extension (docs/mcp-events.md#capability), answered beside the SDK (src/mcp/events/).
 * The sketch puts it at the top level; the SDK's client keeps only the capabilities its schema knows, so it is
 * declared under `experimental` too, where `client.getServerCapabilities()` shows it.
 */
const EVENTS_CAPABILITY = { listChanged: true };
const CAPABILITIES = {
  tools: { listChanged: false },
  events: EVENTS_CAPABILITY,
  experimental: { events: EVENTS_CAPABILITY },
} as ServerCapabilities;

/**
 * A fresh server for one request. Every tool is registered (so a call to one the credential lacks reaches
 * `authorize` and comes back as a tool error naming the missing scope), while tools/list answers only the
 * tools the credential may use.
 */
export function buildMcpServer(
  info: { name: string; instructions: string },
  tools: McpTool[],
  ctx: ToolContext,
): McpServer {
  const server = new McpServer(
    { name: info.name, version: '1.0.0' },
    { capabilities: CAPABILITIES, instructions: info.instructions },
  );

  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      async (args: unknown) => {
        try {
          authorize(ctx.principal, tool.access, ctx.params);
          return toolResult(await tool.run(ctx, args as never));
        } catch (err) {
          const known = toAppError(err);
          if (known) return toolError(known);
          if (isRefusedInput(err)) {
            // As on REST (middleware/errors.ts): the client's error, logged so that the missing rule gets added.
            ctx.log.warn(
              { tool: tool.name, ...describeRefusedInput(err) },
              'the database refused input that validation accepted',
            );
            return toolError(refusedInputError(err));
          }
          ctx.log.error({ err, tool: tool.name }, 'MCP tool failed');
          return toolError(new AppError('internal_error', 'Something went wrong on our side; it has been logged'));
        }
      },
    );
  }

  const listed = (): Tool[] =>
    tools
      .filter((tool) => allows(ctx, tool))
      .map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
        outputSchema: objectJsonSchema(tool.output) as Tool['outputSchema'],
        annotations: { title: tool.title, ...tool.annotations },
      }));
  // Replaces the SDK's list handler (which lists every registered tool) with the credential's view.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed() }));
  registerWebhookMethods(server, ctx);
  return server;
}
