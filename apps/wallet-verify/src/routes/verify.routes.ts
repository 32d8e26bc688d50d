import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { checkAddress } from '@svc/schemas';
import { z } from 'zod';
import { WalletNotFoundError } from '../errors.js';
import type { AppDeps } from '../deps.js';
import { requireApiKey } from './require-api-key.js';

const ZVerifyQuery = z.object({
  wallet_address: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required: an EIP-55 checksummed address such as 0x52908400098527886E0F7030069857D2E4169EE7'
          : Array.isArray(issue.input)
            ? 'must be given once'
            : 'must be a string',
    })
    .superRefine((value, ctx) => {
      const result = checkAddress(value);
      if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
    }),
});

export function verifyRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/v1/human/verify')
    .get(
      requireApiKey(deps.authenticator, deps.limiter, 'wallet:verify'),
      handle({ query: ZVerifyQuery }, async ({ query }, _req, res) => {
        const owner = await deps.wallets.find(query.wallet_address);
        if (!owner) throw new WalletNotFoundError();
        res.json({ wallet_address: query.wallet_address, is_human: owner.palmVerified, user_id: owner.userId });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
