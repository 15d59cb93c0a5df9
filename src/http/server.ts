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
export async function startServer(deps: Deps, port: number, host = '0.0.0.0', opts: { publicUrl?: string } = {}): Promise<RunningServer> {
  const server = createServer();
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (err: Error & { code?: string }, socket) => answerClientError(err, socket, deps.logger));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const listenUrl = host === '0.0.0.0' || host === '::' ? `http://localhost:${actualPort}` : `http://127.0.0.1:${actualPort}`;
  const publicUrl = opts.publicUrl ?? deps.config.oauth.publicUrl ?? listenUrl;
  const { app } = createApp(deps, { publicUrl });
  server.on('request', app.callback());
  return {
    server,
    url: `http://127.0.0.1:${actualPort}`,
    publicUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
