import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZStatusListParams } from '@svc/schemas';
import { statusListNotFound } from './errors.js';
import type { StatusListsDeps } from './deps.js';

// VC DM 2.0 §6.3 registers application/vc; JSON-LD and plain JSON clients get what they ask for.
const MEDIA_TYPES = ['application/vc', 'application/ld+json', 'application/json'];

/**
 * The issuer's Bitstring Status Lists, public (no API token) at the URLs credentials carry, so any
 * verifier can check revocation without knowing this service. Cacheable for STATUS_LIST_MAX_AGE_SECONDS,
 * with an entity tag that changes with every revocation in the list.
 */
export function statusListsRouter(deps: StatusListsDeps): Router {
  const router = Router();
  router
    .route('/status-lists/:id')
    .get(
      handle({ params: ZStatusListParams }, async ({ params }, req, res) => {
        const list = await deps.statusLists.current(params.id.toLowerCase());
        if (!list) throw statusListNotFound();
        res.set({
          'Cache-Control': `public, max-age=${deps.config.STATUS_LIST_MAX_AGE_SECONDS}`,
          ETag: `"${params.id.toLowerCase()}.${list.version}"`,
          'Access-Control-Allow-Origin': '*',
          Vary: 'Accept',
        });
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        res.type(req.accepts(MEDIA_TYPES) || MEDIA_TYPES[0]!).send(JSON.stringify(list.credential));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
