import { Router } from 'express';
import { methodNotAllowed } from '@svc/http';
import { pemOf } from './certificates.js';
import type { KeysDeps } from './deps.js';

/**
 * GET /certificates/issuer-ca.pem: the CA behind every `x5c` chain this issuer signs with, for
 * verifiers' trust lists (HAIP 1.0; an mdoc reader's IACA list). Public: it is what they check against.
 */
export function certificatesRouter(deps: KeysDeps): Router {
  const router = Router();
  router
    .route('/certificates/issuer-ca.pem')
    .get(async (_req, res) => {
      const ca = await deps.issuerCa.authority();
      res.set({ 'Content-Type': 'application/x-pem-file', 'Cache-Control': 'public, max-age=3600' }).send(pemOf(ca));
    })
    .all(methodNotAllowed);
  return router;
}
