import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import type { Logger } from './logger.js';
import { routeTemplate } from './route-template.js';

declare module 'http' {
  interface IncomingMessage {
    id: string;
    log: Logger;
  }
}

// A caller's request id is echoed only when it is short and plain, so logs cannot be forged.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const CHILD = Symbol('request logger');

/** Every request gets an id, echoed as X-Request-Id: the caller's when it is safe, else a new one. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
}

/**
 * `req.log`: a logger bound to the request's id, made only when a handler logs. Defined once on
 * the app's request prototype, not on each request (an accessor added per request costs every
 * request a slower object shape).
 */
export function defineRequestLogger(requestPrototype: object, logger: Logger): void {
  Object.defineProperty(requestPrototype, 'log', {
    configurable: true,
    get(this: IncomingMessage) {
      return loggerFor(this, logger);
    },
  });
}

function loggerFor(req: IncomingMessage & { [CHILD]?: Logger }, logger: Logger): Logger {
  req[CHILD] ??= logger.child({ req_id: req.id });
  return req[CHILD];
}

/**
 * Logs each completed request at a level chosen by its status (2xx/3xx debug, or info with `all`;
 * 4xx info, 5xx error). Only method, route template, status and duration: never the path (a path
 * parameter may be a secret), headers or bodies, whose secrets the redaction paths would otherwise
 * have to catch.
 */
export function completionLog(logger: Logger, all = false): (req: Request, res: ServerResponse, ms: number) => void {
  const success = all ? 'info' : 'debug';
  return (req, res, ms) => {
    const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : success;
    if (!logger.isLevelEnabled(level)) return;
    // Not req.log: an app mounted inside another (the contract tests') has left its prototype by now.
    loggerFor(req, logger)[level](
      { method: req.method, route: routeTemplate(req), status: res.statusCode, duration_ms: Math.round(ms * 10) / 10 },
      'request completed',
    );
  };
}
