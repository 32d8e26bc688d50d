import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZWalletVerifyQuery } from '@svc/schemas';
import { WalletNotFoundError } from '../errors.js';
import type { AppDeps } from '../deps.js';
import { requireApiKey } from './require-api-key.js';
import { sendJson } from './send-json.js';

export function verifyRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/v1/human/verify')
    .get(
      requireApiKey(deps.authenticator, deps.limiter, 'wallet:verify'),
      handle({ query: ZWalletVerifyQuery }, async ({ query }, _req, res) => {
        const owner = await deps.wallets.find(query.wallet_address);
        deps.verifications.inc({ result: !owner ? 'not_found' : owner.palmVerified ? 'human' : 'not_human' });
        if (!owner) throw new WalletNotFoundError();
        // The user as the key's organization knows them: two organizations cannot join their users on it.
        const userId = deps.pairwiseIds.of(res.locals.apiKey!.organizationId, owner);
        sendJson(res, { wallet_address: query.wallet_address, is_human: owner.palmVerified, user_id: userId });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
