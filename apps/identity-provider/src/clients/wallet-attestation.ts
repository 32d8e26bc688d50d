import type { RequestHandler } from 'express';
import type { Cache } from '@svc/kv';
import type { Clock } from '@svc/runtime';
import { type AttestedClient, AttestationError, attestedClientOf, type WalletProviders } from '@svc/wallet-attestations';
import type { Config } from '../config.js';
import { invalidClient } from '../errors.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The wallet a request came from, when it presented an attestation (left by checkWalletAttestation). */
    walletAttestation?: AttestedClient;
  }
}

export interface WalletAttestationDeps {
  config: Pick<Config, 'issuer' | 'WALLET_ATTESTATION_REQUIRED'>;
  walletProviders: WalletProviders;
  clock: Clock;
  cache: Cache;
}

/**
 * HAIP 1.0 wallet attestation (OAuth 2.0 Attestation-Based Client Authentication) at PAR and the
 * token endpoint, before the client is authenticated: an attestation that is presented is always
 * checked (its provider, signature and expiry; the PoP's key, audience, age and unused jti), and
 * must name the request's client_id; a bad one is 401 invalid_client. Whether one is required is
 * the endpoint's to say (a request for credentials under WALLET_ATTESTATION_REQUIRED).
 */
export function checkWalletAttestation(deps: WalletAttestationDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      res.locals.walletAttestation = await attestedClientOf((name) => req.get(name), (req.body as { client_id?: unknown } | undefined)?.client_id, {
        providers: deps.walletProviders,
        audience: deps.config.issuer,
        now: deps.clock.now(),
        remember: async (jti, ttl) => (await deps.cache.increment(`wallet-attestation-pop:${jti}`, ttl)) === 1,
        clientIdRequired: true,
      });
      next();
    } catch (err) {
      next(err instanceof AttestationError ? invalidClient(err.message) : err);
    }
  };
}
