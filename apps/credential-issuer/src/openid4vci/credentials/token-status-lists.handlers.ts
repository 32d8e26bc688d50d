import { handle } from '@svc/http';
import { ZStatusListParams } from '@svc/schemas';
import { statusListNotFound } from '../../status-lists/errors.js';
import type { Openid4vciDeps } from '../deps.js';
import { publicCache } from '../metadata/http-caching.js';
import { signedTokenStatusList, TOKEN_STATUS_LIST_TYP } from './token-status-lists.js';

/** GET /token-status-lists/:id: an IETF Token Status List, signed as a JWT. */
export function tokenStatusListHandler(deps: Openid4vciDeps) {
  return handle({ params: ZStatusListParams }, async ({ params }, req, res) => {
    const id = params.id.toLowerCase();
    const list = await signedTokenStatusList(
      {
        db: deps.db,
        publicUrl: deps.config.publicUrl,
        signer: () => deps.issuerKeys.jwtSigner(),
        now: deps.clock.now(),
        ttlSeconds: deps.config.STATUS_LIST_MAX_AGE_SECONDS,
      },
      id,
    );
    if (!list) throw statusListNotFound();
    // The entity tag moves with every revocation in the list: a verifier's If-None-Match costs no signing.
    res.set({ ...publicCache(deps.config.STATUS_LIST_MAX_AGE_SECONDS), ETag: `"${id}.${list.version}"` });
    if (req.fresh) return void res.status(304).end();
    res.type(`application/${TOKEN_STATUS_LIST_TYP}`).send(list.jwt);
  });
}
