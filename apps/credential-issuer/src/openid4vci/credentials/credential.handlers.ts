import type { Request, RequestHandler } from 'express';
import { handle, readAuthorization } from '@svc/http';
import { ZCredentialRequest, ZNotificationRequest } from '@svc/schemas';
import type { Openid4vciDeps } from '../deps.js';
import { invalidAccessToken } from '../errors.js';
import { encryptedResponse, responseKeyOf } from './encryption.js';
import { issueNonce } from './holder-proofs.js';
import { noStore } from '../metadata/http-caching.js';
import { takeNotification } from './notifications.js';
import { issueToWallet, type PresentedToken } from './wallet-credentials.js';

/** POST /nonce: a c_nonce for the holder's proof. */
export const nonceHandler =
  (deps: Openid4vciDeps): RequestHandler =>
  async (_req, res) => {
    res.set(noStore).json({ c_nonce: await issueNonce(deps.store.cache) });
  };

/** The access token a wallet's request presents, with its scheme and the DPoP proof beside it. */
function presentedTokenOf(req: Request): PresentedToken | undefined {
  const authorization = readAuthorization(req);
  // Garbage after the scheme is a token that is not one, refused as an unknown one is.
  if (authorization && authorization.token === undefined) throw invalidAccessToken();
  return authorization?.token ? { token: authorization.token, scheme: authorization.scheme, proof: req.get('dpop') } : undefined;
}

/** POST /credential: the credential (or a batch of copies), bound to the key each of the wallet's proofs shows it holds. */
export function credentialHandler(deps: Openid4vciDeps) {
  return handle({ body: ZCredentialRequest }, async ({ body }, req, res) => {
    const presented = presentedTokenOf(req);
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
        dpop: deps.walletDpop.credential,
        walletProviders: deps.walletProviders,
      },
      presented,
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
  });
}

/** POST /notification: what became of the credentials of one response; 204. */
export function notificationHandler(deps: Openid4vciDeps) {
  return handle({ body: ZNotificationRequest }, async ({ body }, req, res) => {
    await takeNotification(
      { db: deps.db, config: deps.config, clock: deps.clock, dpop: deps.walletDpop.credential },
      presentedTokenOf(req),
      body,
      deps.authorizationServer,
    );
    res.set(noStore).status(204).end();
  });
}
