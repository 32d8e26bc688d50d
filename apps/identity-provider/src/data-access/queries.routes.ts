import { compileQuery } from '@svc/query-engine';
import { type Request, Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZQueryEvaluateRequest } from '@svc/schemas';
import type { DataAccessDeps } from './deps.js';
import { evaluateQuery } from './evaluate-query.js';
import { requireDataAccess } from './data-access.js';
import { requireSignInFor } from './step-up.js';

/** The presets a query reads, wherever they sit; a query that does not compile reads none (the handler says why). */
function queryPresets(req: Request): readonly string[] {
  try {
    return compileQuery((req.body as { query: Record<string, unknown> }).query).presets;
  } catch {
    return [];
  }
}

export function queriesRouter(deps: DataAccessDeps): Router {
  const router = Router();
  router
    .route('/v2/queries/evaluate')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZQueryEvaluateRequest }, requireDataAccess(deps), requireSignInFor(deps, queryPresets), async ({ body }, _req, res) => {
        const { access, now, subject } = res.locals.dataRead!;
        res.set('Cache-Control', 'no-store').json(await evaluateQuery(body.query, access, subject, now));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
