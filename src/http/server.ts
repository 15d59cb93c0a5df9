import { createServer, type Server } from 'node:http';
import type { Deps } from '../app/deps.js';
import { createApp } from './app.js';
import { answerClientError } from './client-error.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** The origin clients reach it at: PUBLIC_URL, else the address listened on. */
  publicUrl: string;
  /** Stops accepting connections and waits for requests in flight. */
  close(): Promise<void>;
}

/**
 * Listens, then builds the app: without PUBLIC_URL (or `opts.publicUrl`, which tests give a second instance so
 * that both are one service) the OAuth issuer is the address actually listened on.
 */
export async function startServer(
  deps: Deps,
  port: number,
  host?: string,
  opts: { publicUrl?: string } = {},
): Promise<RunningServer> {
  const bind = host ?? deps.config.host;
  const server = createServer();
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (err: Error & { code?: string }, socket) => answerClientError(err, socket, deps.logger));
  await new Promise<void>((resolve) => server.listen(port, bind, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const listenUrl = `http://${displayHost(bind, host === undefined)}:${actualPort}`;
  const publicUrl = opts.publicUrl ?? deps.config.oauth.publicUrl ?? listenUrl;
  const { app } = createApp(deps, { publicUrl });
  server.on('request', app.callback());
  return {
    server,
    url: `http://${bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : displayHost(bind, false)}:${actualPort}`,
    publicUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

/**
 * The host name the banner and the default OAuth issuer use. The configured loopback or wildcard address is
 * shown as localhost (the name the docs use); an address a caller passes (the tests) is kept as it is.
 */
function displayHost(bind: string, configured: boolean): string {
  if (bind === '0.0.0.0' || bind === '::') return 'localhost';
  if (configured && (bind === '127.0.0.1' || bind === '::1' || bind === 'localhost')) return 'localhost';
  return bind.includes(':') ? `[${bind}]` : bind;
}
