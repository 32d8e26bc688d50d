import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { Config } from '../config.js';
import type { TokenContext } from '../tokens/token-context.js';

/** What /oauth/introspect needs from the app: an authenticated client asks about its own tokens. */
export interface IntrospectionDeps extends ClientAuthDeps {
  tokens: TokenContext;
  config: Config;
}
