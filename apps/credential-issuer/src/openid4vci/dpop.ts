import { type CoreDeps, DpopProofs } from '@svc/runtime';
import { invalidDpopProofAtResource, invalidDpopProofAtToken } from './errors.js';

/**
 * RFC 9449: proofs at /token bind the offer's token to a key; at /credential they prove it, each
 * refused in its endpoint's terms. No server nonces: each proof's jti is remembered in the shared
 * store, so a replay is refused.
 */
export function walletDpopProofs(deps: Pick<CoreDeps, 'store' | 'clock'>) {
  const dpop = (invalid: (description: string) => Error) =>
    new DpopProofs({ cache: deps.store.cache, clock: deps.clock, refusals: { invalid, useNonce: () => invalid('No DPoP nonce is issued here') } });
  return { token: dpop(invalidDpopProofAtToken), credential: dpop(invalidDpopProofAtResource) };
}

export type WalletDpopProofs = ReturnType<typeof walletDpopProofs>;
