import { Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZQueryEvaluateRequest } from '@svc/schemas';
import type { DataAccessDeps } from './deps.js';
import { evaluateQuery } from './evaluate-query.js';
import { requireDataAccess } from './data-access.js';

export function queriesRouter(deps: DataAccessDeps): Router {
  const router = Router();
  router
    .route('/v2/queries/evaluate')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZQueryEvaluateRequest }, requireDataAccess(deps), async ({ body }, _req, res) => {
        const { access, now, subject } = res.locals.dataRead!;
        res.set('Cache-Control', 'no-store').json(await evaluateQuery(body.query, access, subject, now));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
