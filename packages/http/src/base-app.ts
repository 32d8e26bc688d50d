import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response, type Router, type ErrorRequestHandler } from 'express';
import { depthLimit } from './body-limits.js';
import { createErrorHandler, notFoundHandler, type OutageClassifier } from './error-handler.js';
import type { Logger } from './logger.js';
import { type Metrics, metricsRouter } from './metrics.js';
import { apiDocsRouter } from './api-docs.js';
import { healthRouter, type ReadinessCheck } from './health.js';
import { openApiDocument, type ApiSpec } from './openapi.js';
import { PLATFORM_OPERATIONS } from './platform-operations.js';
import { assignRequestId, completionLog, defineRequestLogger } from './request-logging.js';
import { routeIndex } from './route-index.js';
import { securityHeaders, type SecurityHeaderOptions } from './security-headers.js';

export interface BaseAppOptions extends SecurityHeaderOptions {
  logger: Logger;
  /** Largest accepted body, in bytes or a size string such as "100kb". */
  bodyLimit?: string | number;
  maxBodyDepth?: number;
  /** Express's `trust proxy`; only set behind a proxy you control. */
  trustProxy?: boolean | number | string;
  /** Counted from the first middleware on, so every answer (errors included) is measured. */
  metrics?: Metrics;
  /** Log every completed request at info (development), not only failures. */
  logAllRequests?: boolean;
}

const rawBodies = new WeakMap<object, Buffer>();

/** A signed webhook delivery's JSON body as it arrived (webhook-signature set), for checking that signature; undefined for any other request. */
export const rawJsonBody = (req: object): Buffer | undefined => rawBodies.get(req);

/**
 * What every request goes through first, in one step: an id and a logger bound to it, security
 * headers, size- and depth-limited JSON and form bodies, and on completion its metrics and its log
 * line. (One middleware, not four: each layer Express walks costs every request.) Routes go
 * between this and `finishApp`.
 */
export function createBaseApp(options: BaseAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  defineRequestLogger(app.request, options.logger);
  const record = options.metrics?.recorder();
  const log = completionLog(options.logger, options.logAllRequests);
  const setSecurityHeaders = securityHeaders(options);
  const limit = options.bodyLimit ?? '100kb';
  const parsers = [
    // A signed webhook delivery's bytes are kept beside its parsed body (a reference, no copy): its
    // signature cannot be checked against a re-serialization. No other request's are kept.
    express.json({ limit, strict: true, verify: (req, _res, buf) => void (req.headers['webhook-signature'] && rawBodies.set(req, buf)) }),
    express.urlencoded({ limit, extended: false, parameterLimit: 100 }),
    depthLimit(options.maxBodyDepth ?? 32),
  ];
  app.use((req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const ms = performance.now() - started;
      record?.(req, res, ms / 1000);
      log(req, res, ms);
    });
    assignRequestId(req, res);
    setSecurityHeaders(req, res);
    // GET and HEAD carry no body worth parsing.
    if (req.method === 'GET' || req.method === 'HEAD') next();
    else runAll(parsers, req, res, next);
  });
  return app;
}

/** Unknown routes answer JSON 404, and the error handler goes last. */
export function finishApp(app: Express, isOutage?: OutageClassifier): Express {
  app.use(notFoundHandler);
  app.use(createErrorHandler(isOutage));
  return app;
}

function runAll(handlers: RequestHandler[], req: Request, res: Response, done: NextFunction): void {
  const step = (i: number) => (err?: unknown) => {
    if (err || i === handlers.length) return done(err);
    handlers[i]!(req, res, step(i + 1));
  };
  step(0)();
}

export interface ServiceAppOptions {
  logger: Logger;
  metrics: Metrics;
  version: string;
  checks: ReadinessCheck[];
  config: {
    BODY_LIMIT: string;
    TRUST_PROXY?: boolean | number | string | undefined;
    GIT_COMMIT?: string | undefined;
    METRICS_TOKEN?: string | undefined;
    LOG_REQUESTS?: 'failures' | 'all' | undefined;
  };
  /** The service's operations; served as /openapi.json and /docs. */
  api: ApiSpec;
  /** The document's server URL: the public base URL, or "/" (relative to the document). */
  serverUrl: string;
  /** Which failures are a dependency outage (503), not a bug (500). */
  isOutage?: OutageClassifier;
}

export interface ServiceRoutes {
  routers: Router[];
  /** Error middleware of the service's own, before the shared error handler (e.g. HTML error pages). */
  errorPages?: ErrorRequestHandler;
}

/**
 * What every service app is: the base middleware, /health and /ready, /metrics, /openapi.json
 * and /docs, the service's own routers, then 404/405 and the error handler.
 */
export function createServiceApp(options: ServiceAppOptions, routes: ServiceRoutes): Express {
  const { config } = options;
  const app = createBaseApp({
    logger: options.logger,
    metrics: options.metrics,
    bodyLimit: config.BODY_LIMIT,
    logAllRequests: config.LOG_REQUESTS === 'all',
    ...(config.TRUST_PROXY !== undefined ? { trustProxy: config.TRUST_PROXY } : {}),
  });
  const routers = [
    healthRouter({ version: options.version, commit: config.GIT_COMMIT ?? null, checks: options.checks }),
    metricsRouter(options.metrics, config.METRICS_TOKEN),
    apiDocsRouter(
      openApiDocument(
        { ...options.api, operations: [...options.api.operations, ...PLATFORM_OPERATIONS] },
        { version: options.version, servers: [{ url: options.serverUrl }] },
      ),
    ),
    ...routes.routers,
  ];
  app.use(routeIndex(routers));
  for (const router of routers) app.use(router);
  if (routes.errorPages) app.use(routes.errorPages);
  return finishApp(app, options.isOutage);
}
