import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// A loop is given either a connected Client, which the caller owns and closes, or a function that connects one,
// which the loop then owns: it closes it when it stops, which is what ends a held long poll or an open stream on
// the wire (aborting one request of a shared client cannot close its HTTP response).

export type ClientSource = Client | (() => Promise<Client>);

export interface Connection {
  client: Client;
  release(): Promise<void>;
}

export async function open(source: ClientSource): Promise<Connection> {
  if (source instanceof Client) return { client: source, release: async () => undefined };
  const client = await source();
  return { client, release: () => client.close().catch(() => undefined) };
}

export interface ConnectOptions {
  /** The MCP endpoint, e.g. https://switchboard.example.com/v1/agents/agt_…/mcp. */
  url: string | URL;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** More request headers. */
  headers?: Record<string, string>;
  /** The client's name in the initialize handshake. Default "mcp-events". */
  name?: string;
}

/** Connects a Client over Streamable HTTP. Pass `() => connect(options)` to a loop to let it own connections. */
export async function connect(options: ConnectOptions): Promise<Client> {
  const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers } });
  const client = new Client({ name: options.name ?? 'mcp-events', version: '0.1.0' });
  await client.connect(transport);
  return client;
}
