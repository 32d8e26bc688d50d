import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { SessionCookieDeps } from '../sessions/session-cookie.js';
import type { IdpCounters } from '../metrics.js';
import type { TokenContext } from '../tokens/token-context.js';

/** What /oauth/revoke needs from the app: a client or the signed-in user revokes. */
export interface RevocationDeps extends ClientAuthDeps, SessionCookieDeps {
  tokens: TokenContext;
  counters: IdpCounters;
}
