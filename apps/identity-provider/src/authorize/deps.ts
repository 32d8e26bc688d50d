import type { CoreDeps } from '@svc/runtime';
import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { WalletAttestationDeps } from '../clients/wallet-attestation.js';
import type { DpopBindingDeps } from '../dpop/dpop-binding.js';
import type { SessionCookieDeps } from '../sessions/session-cookie.js';

/** What /oauth/authorize, /oauth/par and /oauth/authorize/result need from the app. */
export interface AuthorizeDeps extends SessionCookieDeps, ClientAuthDeps, DpopBindingDeps, Pick<CoreDeps, 'store'> {
  /** Wallet attestations at PAR (HAIP 1.0). */
  walletAttestations: WalletAttestationDeps;
}
