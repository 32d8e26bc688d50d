import type { RequestHandler } from 'express';
import type { ValidatedHandler } from '@svc/http';
import type { ZCredentialRequest, ZNotificationRequest } from '@svc/schemas';
import type { Openid4vciDeps } from '../deps.js';
import { encryptedResponse, responseKeyOf } from './encryption.js';
import { issueNonce } from './holder-proofs.js';
import { noStore } from '../metadata/http-caching.js';
import { takeNotification } from './notifications.js';
import { issueToWallet } from './wallet-credentials.js';

/** POST /nonce: a c_nonce for the holder's proof. */
export const nonceHandler =
  (deps: Openid4vciDeps): RequestHandler =>
  async (_req, res) => {
    res.set(noStore).json({ c_nonce: await issueNonce(deps.store.cache) });
  };

/** POST /credential: the credential (or a batch of copies), bound to the key each of the wallet's proofs shows it holds. */
export function credentialHandler(deps: Openid4vciDeps): ValidatedHandler<{ body: typeof ZCredentialRequest }> {
  return async ({ body }, _req, res) => {
    // The wallet's encryption key is checked before anything is issued.
    const encryption = body.credential_response_encryption;
    const responseKey = encryption && (await responseKeyOf(encryption, res.locals.encryptedRequest === true));
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
        walletProviders: deps.walletProviders,
        statusList: (uri) => deps.keyAttestationStatusLists.get(uri),
      },
      res.locals.walletToken!,
      body,
      deps.authorizationServer,
    );
    deps.counters.issued.inc({ request: 'openid4vci' }, issued.credentials.length);
    if (encryption && responseKey)
      res
        .set(noStore)
        .type('application/jwt')
        .send(await encryptedResponse(issued, encryption, responseKey));
    else res.set(noStore).json(issued);
  };
}

/** POST /notification: what became of the credentials of one response; 204. */
export function notificationHandler(deps: Openid4vciDeps): ValidatedHandler<{ body: typeof ZNotificationRequest }> {
  return async ({ body }, _req, res) => {
    await takeNotification(deps, res.locals.walletToken!, body);
    res.set(noStore).status(204).end();
  };
}
