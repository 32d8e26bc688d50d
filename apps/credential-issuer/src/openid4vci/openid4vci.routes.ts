import { Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZCredentialRequest, ZNotificationRequest } from '@svc/schemas';
import { requireToken } from '../http/require-token.js';
import { approvalEventsHandler, requireIdentityProviderSignature } from './approvals/approval-events.handlers.js';
import { credentialHandler, nonceHandler, notificationHandler } from './credentials/credential.handlers.js';
import { decryptedRequest } from './credentials/encryption.js';
import { requireWalletToken } from './credentials/wallet-token.js';
import type { Openid4vciDeps } from './deps.js';
import {
  authorizationServerMetadataHandler,
  credentialIssuerMetadataHandler,
  jwtVcIssuerMetadataHandler,
  typeMetadataHandler,
} from './metadata/metadata.handlers.js';
import { createOfferHandler, offerHandler } from './offers/offers.handlers.js';
import { tokenHandler } from './token.handlers.js';
import { tokenStatusListHandler } from './credentials/token-status-lists.handlers.js';
import { requireWalletAttestation } from './wallet-attestation.js';
import { perAddress } from './wallet-limits.js';

/**
 * OpenID for Verifiable Credential Issuance 1.0 (docs/credential-issuer.md, "Wallets"): the
 * metadata wallets discover, offers integrators make with an API key, and the pre-authorized code
 * flow a wallet runs: offer, token, nonce, credential. The credential's status list is public.
 *   GET  /.well-known/openid-credential-issuer, /oauth-authorization-server, /jwt-vc-issuer
 *   GET  /credential-types/:type            type metadata at each `vct`
 *   POST /credential-offers                 an offer (API token)
 *   GET  /credential-offers/:handle         the offer, for the wallet
 *   POST /token                             pre-authorized code → access token
 *   POST /nonce                             a c_nonce for the holder's proof
 *   POST /credential                        the credential (or a batch), bound to the holder's keys
 *   POST /notification                      what became of the credentials of one response
 *   GET  /token-status-lists/:id            an IETF Token Status List
 *   POST /authorization-server/events       the identity provider's approval events (when configured)
 * A wallet in a browser calls the wallet endpoints from its own origin (CORS, preflight included);
 * no cookies are involved. Each address takes WALLET_REQUESTS_PER_MINUTE of each, NONCES_PER_MINUTE nonces.
 */
export function openid4vciRouter(deps: Openid4vciDeps): Router {
  const router = Router();
  const walletCalls = (what: string) => perAddress(deps, what, () => deps.config.WALLET_REQUESTS_PER_MINUTE);
  const walletToken = { ...deps, dpop: deps.walletDpop.credential };

  router.get('/.well-known/openid-credential-issuer', credentialIssuerMetadataHandler(deps));
  router.get('/.well-known/oauth-authorization-server', authorizationServerMetadataHandler(deps));
  router.get('/.well-known/jwt-vc-issuer', jwtVcIssuerMetadataHandler(deps));
  router.get('/credential-types/:type', typeMetadataHandler(deps));

  router.route('/credential-offers').post(requireToken(deps, 'credentials:issue'), createOfferHandler(deps)).all(methodNotAllowed);
  router.route('/credential-offers/:handle').options(openCors).get(openCors, walletCalls('offer'), offerHandler(deps)).all(methodNotAllowed);
  router.route('/token').options(openCors).post(openCors, walletCalls('token'), requireWalletAttestation(deps), tokenHandler(deps)).all(methodNotAllowed);
  // A flood of nonces would fill the shared store: each address takes NONCES_PER_MINUTE.
  router
    .route('/nonce')
    .options(openCors)
    .post(
      openCors,
      perAddress(deps, 'nonce', () => deps.config.NONCES_PER_MINUTE),
      nonceHandler(deps),
    )
    .all(methodNotAllowed);
  router
    .route('/credential')
    .options(openCors)
    .post(
      openCors,
      walletCalls('credential'),
      decryptedRequest(deps.requestEncryptionKey),
      handle({ body: ZCredentialRequest }, requireWalletToken(walletToken, '/credential'), credentialHandler(deps)),
    )
    .all(methodNotAllowed);
  router
    .route('/notification')
    .options(openCors)
    .post(
      openCors,
      walletCalls('notification'),
      handle({ body: ZNotificationRequest }, requireWalletToken(walletToken, '/notification'), notificationHandler(deps)),
    )
    .all(methodNotAllowed);
  router.route('/token-status-lists/:id').get(tokenStatusListHandler(deps)).all(methodNotAllowed);

  // Only where the identity provider can sign its events: with the authorization server and its webhook secret configured.
  const server = deps.config.authorizationServer;
  if (server?.webhookSecret)
    router
      .route('/authorization-server/events')
      .post(requireIdentityProviderSignature(deps, server.webhookSecret), approvalEventsHandler(deps, server.organizationId))
      .all(methodNotAllowed);
  return router;
}
