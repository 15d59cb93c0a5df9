// MCP clients for the tests: the SDK's own Client over Streamable HTTP, as a desktop client would connect.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

/** Connects (initialize handshake included) to `path` on the API with a bearer credential. */
export async function connectMcp(baseUrl: string, path: string, token?: string): Promise<McpConnection> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(path, baseUrl), { requestInit: { headers } });
  const client = new Client({ name: 'switchboard-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Tool names the server lists for this connection, sorted. */
export async function toolNames(conn: McpConnection): Promise<string[]> {
  const { tools } = await conn.client.listTools();
  return tools.map((t) => t.name).sort();
}

/** Calls a tool and returns its result (tool errors are results with isError, not exceptions). */
export async function callTool(conn: McpConnection, name: string, args: Record<string, unknown> = {}) {
  const result = await conn.client.callTool({ name, arguments: args });
  return result as { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
}

/** The per-agent endpoint's tools for a key holding every agent scope, sorted, written out as a client sees them. */
export const AGENT_TOOLS = [
  'get_agent_activity',
  'get_agent_config',
  'get_agent_conversations',
  'trigger_agent',
  'update_agent_config',
];
