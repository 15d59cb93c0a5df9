import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { StartupError } from '../platform/local-services.js';
import type { Deps } from '../app/deps.js';
import { createApp } from './app.js';
import { answerClientError } from './client-error.js';
import { endEventStreams } from './event-stream.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** The origin clients reach it at: PUBLIC_URL, else the address listened on. */
  publicUrl: string;
  /**
   * Stops accepting connections and waits for requests in flight; a keep-alive connection is closed once its
   * request in flight is answered. Connections still busy at `deadline` are cut.
   */
  close(deadline?: Promise<void>): Promise<void>;
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
  await listenOrRefuse(server, port, bind);
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
    close: (deadline) =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
        // A held-open stream (subscriptions/listen, a webhook stream) is never answered: it ends now.
        endEventStreams(app);
        // Answers written from now on say "Connection: close", so clients stop reusing their connections.
        server.on('request', (_req, res) => {
          res.shouldKeepAlive = false;
        });
        void deadline?.then(() => server.closeAllConnections());
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

/** The one line a person reads when the port is taken, naming the port and the setting that moves it. */
function portInUse(port: number, host: string): StartupError {
  return new StartupError(`port ${port} on ${host} is in use by another process: stop it, or set PORT to a free port`);
}

function listenOrRefuse(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? portInUse(port, host) : err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Refuses at once when something listens on the port already: npm start checks before it starts any other
 * process, so the mistake costs one line, not a worker started and stopped.
 */
export async function assertPortFree(port: number, host = '0.0.0.0'): Promise<void> {
  if (port === 0) return;
  const probe = createTcpServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? portInUse(port, host) : err);
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
