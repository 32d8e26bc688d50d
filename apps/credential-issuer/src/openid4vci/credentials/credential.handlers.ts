import type { RequestHandler } from 'express';
import { handle } from '@svc/http';
import { ZCredentialRequest } from '@svc/schemas';
import type { Openid4vciDeps } from '../deps.js';
import { issueNonce } from './holder-proofs.js';
import { noStore } from '../metadata/http-caching.js';
import { issueToWallet, type PresentedToken } from './wallet-credentials.js';

/** POST /nonce: a c_nonce for the holder's proof. */
export const nonceHandler =
  (deps: Openid4vciDeps): RequestHandler =>
  async (_req, res) => {
    res.set(noStore).json({ c_nonce: await issueNonce(deps.store.cache) });
  };

/** POST /credential: the credential, bound to the key the wallet's proof shows it holds. */
export function credentialHandler(deps: Openid4vciDeps) {
  return handle({ body: ZCredentialRequest }, async ({ body }, req, res) => {
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    const kind = scheme?.toLowerCase();
    const presented: PresentedToken | undefined = (kind === 'bearer' || kind === 'dpop') && token ? { token, scheme: kind, proof: req.get('dpop') } : undefined;
    const issued = await issueToWallet(
      {
        db: deps.db,
        sql: deps.sql,
        config: deps.config,
        keys: deps.issuerKeys,
        pool: deps.pool,
        clock: deps.clock,
        cache: deps.store.cache,
        limiter: deps.store.limiter,
        dpop: deps.walletDpop.credential,
      },
      presented,
      body,
      deps.authorizationServer,
    );
    deps.counters.issued.inc({ request: 'openid4vci' });
    res.set(noStore).json(issued);
  });
}
