import type { Clients } from '../clients/clients.js';
import type { DpopBindingDeps } from '../dpop/dpop-binding.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { TokenContext } from '../tokens/token-context.js';

/** What checking a bearer (or DPoP-bound) access token needs. */
export interface AccessTokenGuardDeps extends DpopBindingDeps {
  /** The token's client, for the algorithms its DPoP proofs may use (fewer under FAPI 2.0). */
  clients: Clients;
  tokens: TokenContext;
  limits: RequestLimits;
}
