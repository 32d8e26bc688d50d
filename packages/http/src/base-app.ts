import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { depthLimit } from './body-limits.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import type { Logger } from './logger.js';
import { securityHeaders, type SecurityHeaderOptions } from './security-headers.js';

export interface BaseAppOptions extends SecurityHeaderOptions {
  logger: Logger;
  /** Largest accepted body, in bytes or a size string such as "100kb". */
  bodyLimit?: string | number;
  maxBodyDepth?: number;
  /** Express's `trust proxy`; only set behind a proxy you control. */
  trustProxy?: boolean | number | string;
}

// A caller's request id is echoed only when it is short and plain, so logs cannot be forged.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
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
  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req, res) => {
        const id = requestId(req);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    }),
  );
  app.use(securityHeaders(options));
  const limit = options.bodyLimit ?? '100kb';
  app.use(express.json({ limit, strict: true }));
  app.use(express.urlencoded({ limit, extended: false, parameterLimit: 100 }));
  app.use(depthLimit(options.maxBodyDepth ?? 32));
  return app;
}

/** Unknown routes answer JSON 404, and the error handler goes last. */
export function finishApp(app: Express): Express {
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
