import type { RequestHandler } from 'express';
import { limitSource } from '@svc/http';
import type { CoreDeps } from '@svc/runtime';
import { overLimit } from '../http/errors.js';

/** Each source address (an IPv6 one by its /64) takes `limit` a minute of `what`: each costs a database query or a store entry. */
export const perAddress =
  (deps: Pick<CoreDeps, 'store'>, what: string, limit: () => number): RequestHandler =>
  async (req, _res, next) => {
    const decision = await deps.store.limiter.consume(`wallet:${what}:${limitSource(req.ip ?? 'unknown')}`, { limit: limit(), windowSeconds: 60 });
    if (!decision.allowed)
      throw overLimit(decision.retryAfterSeconds, `Too many ${what} requests from this address`, { 'Retry-After': String(decision.retryAfterSeconds) });
    next();
  };
