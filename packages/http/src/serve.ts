import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish (up to the
 * drain timeout), then closes dependencies and exits.
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { app, logger } = options;
  const server = createServer(app);
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
