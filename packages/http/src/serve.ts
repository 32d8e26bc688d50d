import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';
import type { Logger } from './logger.js';

export interface ServeOptions {
  app: Express;
  port: number;
  host?: string;
  logger: Logger;
  /** Closes what the process opened (database, Redis, workers) once requests have drained. */
  close: () => Promise<void>;
  /** In-flight requests get this long to finish after a stop signal. */
  drainTimeoutMs?: number;
}

export interface RunningServer {
  server: Server;
  port: number;
  stop(): Promise<void>;
}

/** Node.js before 24 makes Express's re-parenting of each request slow; 24 does not (see createHttpServer). */
const REPARENTING_IS_SLOW = Number(process.versions.node.split('.')[0]) < 24;

/**
 * An HTTP server for `app`. Express re-parents every req and res (`Object.setPrototypeOf`) as it
 * takes them. On Node.js 20 and 22 that drops both objects out of V8's fast property access for the
 * rest of the request (measured here: an Express hello-world at a third of its throughput), so
 * there requests and responses are born with the app's own prototypes and the swap is a no-op. On
 * Node.js 24 the swap costs nothing and being born that way costs a fifth of a hello-world's CPU
 * (measured side by side, `bench/hot-paths.mjs`), so there the server is node:http's own.
 */
export function createHttpServer(app: Express): Server {
  if (!(app.request instanceof IncomingMessage) || !(app.response instanceof ServerResponse)) throw new TypeError('not an Express app');
  if (!REPARENTING_IS_SLOW) return createServer(app);
  // node:http's request and response are function constructors, so these call them on `this`.
  function Request(this: IncomingMessage, socket: Socket) {
    IncomingMessage.call(this, socket);
  }
  function Response(this: ServerResponse, req: IncomingMessage, options: object) {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options: object) => void).call(this, req, options);
  }
  Request.prototype = app.request;
  Response.prototype = app.response;
  return createServer({ IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse }, app);
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish (up to the
 * drain timeout), then closes dependencies and exits.
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { app, logger } = options;
  const server = createHttpServer(app);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), options.drainTimeoutMs ?? 10_000);
      await drained;
      clearTimeout(timer);
      await options.close();
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      // Ctrl-C under `npm start` brings SIGINT from the terminal and SIGTERM from the launcher: one line.
      if (!stopping) logger.info({ signal }, 'shutting down');
      stop().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { server, port, stop };
}
