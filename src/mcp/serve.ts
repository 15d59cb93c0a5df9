import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * Answers one MCP POST, statelessly: the server and transport live for this request only, so nothing about one
 * credential can leak into another's request. The body was already parsed by the JSON body middleware (the
 * stream is consumed), so it is handed over as `parsedBody`. JSON responses (not SSE): every tool answers at once.
 */
export async function serveMcpRequest(
  server: McpServer,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
