import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { WalletAttestationDeps } from '../clients/wallet-attestation.js';
import type { DpopBindingDeps } from '../dpop/dpop-binding.js';
import type { IdpCounters } from '../metrics.js';
import type { TokenContext } from './token-context.js';

/** What the token endpoint needs from the app. */
export interface TokenDeps extends ClientAuthDeps, DpopBindingDeps {
  tokens: TokenContext;
  counters: IdpCounters;
  /** Wallet attestations at the token endpoint (HAIP 1.0). */
  walletAttestations: WalletAttestationDeps;
}
