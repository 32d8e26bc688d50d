import type { RequestHandler } from 'express';
import type { CoreDeps } from '@svc/runtime';
import { ATTEST_JWT_CLIENT_AUTH, type AttestedClient, AttestationError, attestedClientOf, type WalletProviders } from '@svc/wallet-attestations';
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
      const client = await attestedClientOf((name) => req.get(name), (req.body as { client_id?: unknown } | undefined)?.client_id, {
        providers: deps.walletProviders,
        audience: deps.config.publicUrl,
        now: deps.clock.now(),
        remember: async (jti, ttl) => (await deps.store.cache.increment(`wallet-attestation-pop:${jti}`, ttl)) === 1,
      });
      if (!client && deps.config.WALLET_ATTESTATION_REQUIRED)
        throw invalidWalletClient('A wallet attestation is required: send OAuth-Client-Attestation and OAuth-Client-Attestation-PoP');
      if (client) res.locals.walletClient = client;
      next();
    } catch (err) {
      next(err instanceof AttestationError ? invalidWalletClient(err.message) : err);
    }
  };
}
