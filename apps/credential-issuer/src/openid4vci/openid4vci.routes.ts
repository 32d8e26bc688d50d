import { type RequestHandler, Router } from 'express';
import { handle, limitSource, methodNotAllowed, openCors, rawJsonBody } from '@svc/http';
import {
  PRE_AUTHORIZED_CODE_GRANT,
  ZCreateCredentialOfferRequest,
  ZCredentialRequest,
  ZOfferHandleParams,
  ZPreAuthorizedTokenRequest,
  ZStatusListParams,
} from '@svc/schemas';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { invalidField, overLimit, statusListNotFound, unsupportedGrantType } from '../errors.js';
import { requireToken } from '../http/require-token.js';
import { CREDENTIAL_CONFIGURATIONS } from './configurations.js';
import { issueNonce } from './holder-proofs.js';
import { authorizationServerMetadata, credentialIssuerMetadata, jwtVcIssuerMetadata, typeMetadata } from './metadata.js';
import { createOffer, exchangePreAuthorizedCode, offerByHandle } from './offers.js';
import { signedTokenStatusList, TOKEN_STATUS_LIST_TYP } from './token-status-lists.js';
import { issueToWallet, type PresentedToken } from './wallet-credentials.js';
import { approvalEventOf, endApprovalCredentials, verifyEventSignature } from './approvals/approval-events.js';

const publicCache = (seconds: number) => ({ 'Cache-Control': `public, max-age=${seconds}`, 'Access-Control-Allow-Origin': '*' });
const noStore = { 'Cache-Control': 'no-store' };

/**
 * OpenID for Verifiable Credential Issuance 1.0 (docs/credential-issuer.md, "Wallets"): the
 * metadata wallets discover, offers integrators make with an API key, and the pre-authorized code
 * flow a wallet runs: offer, token, nonce, credential. The credential's status list is public.
 */
export function walletsRouter(deps: AppDeps): Router {
  const router = Router();
  const issuer = deps.config.publicUrl;
  const authorizationServer = deps.config.authorizationServer;
  const offers = { db: deps.db, publicUrl: issuer, now: () => deps.clock.now(), authorizationServer: authorizationServer?.issuer };

  router.get('/.well-known/openid-credential-issuer', (_req, res) => {
    res.set(publicCache(300)).json(credentialIssuerMetadata(issuer, deps.config.ISSUER_DISPLAY_NAME, authorizationServer?.issuer));
  });
  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.set(publicCache(300)).json(authorizationServerMetadata(issuer));
  });
  router.get('/.well-known/jwt-vc-issuer', async (_req, res) => {
    res.set(publicCache(300)).json(jwtVcIssuerMetadata(issuer, await deps.issuerKeys.jwtPublicKeys()));
  });
  router.get(
    '/credential-types/:type',
    handle({ params: z.object({ type: z.string().max(100) }) }, async ({ params }, _req, res) => {
      const configuration = CREDENTIAL_CONFIGURATIONS.find((c) => c.type === params.type);
      if (!configuration) {
        res.status(404).json({ error: 'not_found', error_description: 'No such credential type' });
        return;
      }
      res.set(publicCache(3600)).json(typeMetadata(issuer, configuration));
    }),
  );

  /** Each source address (an IPv6 one by its /64) takes `limit` a minute of `what`: each costs a database query or a store entry. */
  const perAddress =
    (what: string, limit: () => number): RequestHandler =>
    async (req, _res, next) => {
      const decision = await deps.store.limiter.consume(`wallet:${what}:${limitSource(req.ip ?? 'unknown')}`, { limit: limit(), windowSeconds: 60 });
      if (!decision.allowed)
        throw overLimit(decision.retryAfterSeconds, `Too many ${what} requests from this address`, { 'Retry-After': String(decision.retryAfterSeconds) });
      next();
    };
  const walletCalls = (what: string) => perAddress(what, () => deps.config.WALLET_REQUESTS_PER_MINUTE);

  router
    .route('/credential-offers')
    .post(
      requireToken(deps.authenticator, deps.limiter, 'credentials:issue'),
      handle({ body: ZCreateCredentialOfferRequest }, async ({ body }, _req, res) => {
        res
          .status(201)
          .set(noStore)
          .json(await createOffer(offers, res.locals.caller!, body));
      }),
    )
    .all(methodNotAllowed);
  // A wallet in a browser calls these from its own origin (CORS, preflight included); no cookies are involved.
  router
    .route('/credential-offers/:handle')
    .options(openCors)
    .get(
      openCors,
      walletCalls('offer'),
      handle({ params: ZOfferHandleParams }, async ({ params }, _req, res) => {
        res.set(noStore).json(await offerByHandle(offers, params.handle));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/token')
    .options(openCors)
    .post(
      openCors,
      walletCalls('token'),
      // Wallets send more than the grant needs (`resource`, the drafts' `user_pin`): ignored, as OAuth says.
      handle({ body: ZPreAuthorizedTokenRequest }, async ({ body }, req, res) => {
        if (body.grant_type !== PRE_AUTHORIZED_CODE_GRANT) throw unsupportedGrantType();
        const proof = req.get('dpop');
        const jkt =
          proof === undefined ? undefined : await deps.walletDpop.token.verify(proof, { method: 'POST', url: `${issuer}/token`, requireNonce: false });
        res.set({ ...noStore, Pragma: 'no-cache' }).json(await exchangePreAuthorizedCode(offers, body['pre-authorized_code'], body.tx_code, jkt));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/nonce')
    .options(openCors)
    // A flood of nonces would fill the shared store: each address takes NONCES_PER_MINUTE.
    .post(
      openCors,
      perAddress('nonce', () => deps.config.NONCES_PER_MINUTE),
      async (_req, res) => {
        res.set(noStore).json({ c_nonce: await issueNonce(deps.store.cache) });
      },
    )
    .all(methodNotAllowed);
  router
    .route('/credential')
    .options(openCors)
    .post(
      openCors,
      walletCalls('credential'),
      handle({ body: ZCredentialRequest }, async ({ body }, req, res) => {
        const [scheme, token] = (req.headers.authorization ?? '').split(' ');
        const kind = scheme?.toLowerCase();
        const presented: PresentedToken | undefined =
          (kind === 'bearer' || kind === 'dpop') && token ? { token, scheme: kind, proof: req.get('dpop') } : undefined;
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
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/token-status-lists/:id')
    .get(
      handle({ params: ZStatusListParams }, async ({ params }, req, res) => {
        const id = params.id.toLowerCase();
        const list = await signedTokenStatusList(
          {
            db: deps.db,
            publicUrl: issuer,
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
      }),
    )
    .all(methodNotAllowed);
  // The identity provider's wallet_approval.revoked and .data_changed (Standard Webhooks): what was issued on the approval is revoked.
  const webhookSecret = authorizationServer?.webhookSecret;
  if (authorizationServer && webhookSecret) {
    const approvalDeps = { db: deps.db, cache: deps.store.cache, now: () => deps.clock.now(), organizationId: authorizationServer.organizationId };
    router
      .route('/authorization-server/events')
      .post(async (req, res) => {
        const headers = { id: req.get('webhook-id'), timestamp: req.get('webhook-timestamp'), signature: req.get('webhook-signature') };
        const body = rawJsonBody(req);
        if (headers.signature && !body) throw invalidField('body', 'must be the event as JSON (Content-Type: application/json)');
        verifyEventSignature(webhookSecret, headers, body ?? Buffer.alloc(0), deps.clock.now());
        const event = approvalEventOf(req.body);
        if (event) {
          const revoked = await endApprovalCredentials(approvalDeps, event.authorizationId, event.configurationIds);
          deps.logger.info({ authorization_id: event.authorizationId, revoked }, 'credentials on a wallet approval revoked at the identity provider’s word');
        }
        res.status(204).end();
      })
      .all(methodNotAllowed);
  }

  return router;
}
