import { createServer, type Server } from 'node:http';
import type { Deps } from '../platform/deps.js';
import { createApp } from './app.js';
import { answerClientError } from './client-error.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting connections and waits for requests in flight. */
  close(): Promise<void>;
}

export async function startServer(deps: Deps, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const { app } = createApp(deps);
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (err: Error & { code?: string }, socket) => answerClientError(err, socket, deps.logger));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://127.0.0.1:${actualPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
