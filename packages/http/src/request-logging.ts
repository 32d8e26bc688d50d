import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from './logger.js';

declare module 'http' {
  interface IncomingMessage {
    id: string;
    log: Logger;
  }
}

// A caller's request id is echoed only when it is short and plain, so logs cannot be forged.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (echoed as X-Request-Id) and a logger bound to it, created only if a
 * handler logs; logs each completed request at a level chosen by its status (2xx/3xx debug, or
 * info with `all`; 4xx info, 5xx error). Only method, path, status and duration are logged: never headers or
 * bodies, whose secrets the redaction paths would otherwise have to catch.
 */
export function requestLogging(logger: Logger, all = false): RequestHandler {
  const success = all ? 'info' : 'debug';
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ req_id: id })),
    });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : success;
      if (!logger.isLevelEnabled(level)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log[level]({ method: req.method, path: req.path, status: res.statusCode, duration_ms: Math.round(ms * 10) / 10 }, 'request completed');
    });
    next();
  };
}
