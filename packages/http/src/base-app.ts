import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { depthLimit } from './body-limits.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import type { Logger } from './logger.js';
import { requestLogging } from './request-logging.js';
import { securityHeaders, type SecurityHeaderOptions } from './security-headers.js';

export interface BaseAppOptions extends SecurityHeaderOptions {
  logger: Logger;
  /** Largest accepted body, in bytes or a size string such as "100kb". */
  bodyLimit?: string | number;
  maxBodyDepth?: number;
  /** Express's `trust proxy`; only set behind a proxy you control. */
  trustProxy?: boolean | number | string;
}

/**
 * The middleware every service shares, in order: request id and logging, security headers,
 * size- and depth-limited JSON and form bodies. Routes go between this and `finishApp`.
 */
export function createBaseApp(options: BaseAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  app.use(requestLogging(options.logger));
  app.use(securityHeaders(options));
  const limit = options.bodyLimit ?? '100kb';
  const parsers = [
    express.json({ limit, strict: true }),
    express.urlencoded({ limit, extended: false, parameterLimit: 100 }),
    depthLimit(options.maxBodyDepth ?? 32),
  ];
  // GET and HEAD carry no body worth parsing; skipping three layers matters on hot read paths.
  app.use((req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : runAll(parsers, req, res, next)));
  return app;
}

/** Unknown routes answer JSON 404, and the error handler goes last. */
export function finishApp(app: Express): Express {
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

function runAll(handlers: RequestHandler[], req: Request, res: Response, done: NextFunction): void {
  const step = (i: number) => (err?: unknown) => {
    if (err || i === handlers.length) return done(err);
    handlers[i]!(req, res, step(i + 1));
  };
  step(0)();
}
