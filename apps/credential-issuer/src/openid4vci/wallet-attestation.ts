import type { RequestHandler } from 'express';
import type { CoreDeps } from '@svc/runtime';
import {
  ATTEST_JWT_CLIENT_AUTH,
  type AttestedClient,
  AttestationError,
  presentedAttestation,
  verifyClientAttestation,
  type WalletProviders,
} from '@svc/wallet-attestations';
import type { Config } from '../config.js';
import { invalidWalletClient } from './errors.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The wallet a token request came from, when it presented an attestation (left by requireWalletAttestation). */
    walletClient?: AttestedClient;
  }
}

export interface WalletAttestationDeps extends Pick<CoreDeps, 'clock' | 'store'> {
  config: Config;
  walletProviders: WalletProviders;
}

/** How a wallet authenticates at this issuer's token endpoint: anonymously, unless an attestation is required. */
export const tokenEndpointAuthMethods = (config: Config) => (config.WALLET_ATTESTATION_REQUIRED ? [ATTEST_JWT_CLIENT_AUTH] : ['none', ATTEST_JWT_CLIENT_AUTH]);

/**
 * HAIP 1.0 wallet attestation at the token endpoint: an attestation that is presented is always
 * checked (its provider, signature and expiry; the PoP's key, audience, age and unused jti), and a
 * bad one is 401 invalid_client; none at all is refused only under WALLET_ATTESTATION_REQUIRED.
 */
export function requireWalletAttestation(deps: WalletAttestationDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      const presented = presentedAttestation((name) => req.get(name));
      if (!presented) {
        if (deps.config.WALLET_ATTESTATION_REQUIRED)
          throw invalidWalletClient('A wallet attestation is required: send OAuth-Client-Attestation and OAuth-Client-Attestation-PoP');
        return next();
      }
      const client = await verifyClientAttestation(presented, {
        providers: deps.walletProviders,
        audience: deps.config.publicUrl,
        now: deps.clock.now(),
        remember: async (jti, ttl) => (await deps.store.cache.increment(`wallet-attestation-pop:${jti}`, ttl)) === 1,
      });
      // A client_id the request names must be the one the provider attested.
      const named = (req.body as { client_id?: unknown } | undefined)?.client_id;
      if (named !== undefined && named !== client.clientId) throw invalidWalletClient('client_id is not the client the wallet attestation names (its sub)');
      res.locals.walletClient = client;
      next();
    } catch (err) {
      next(err instanceof AttestationError ? invalidWalletClient(err.message) : err);
    }
  };
}
