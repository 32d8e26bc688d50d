import type { Clients } from '../clients/clients.js';
import type { TokenContext } from '../tokens/token-context.js';
import type { EndSessionDeps } from '../sessions/end-session.js';

/** What the end-session endpoint needs: the session to end, the clients and their registered URIs, the id_token keys. */
export interface LogoutDeps extends EndSessionDeps {
  clients: Clients;
  tokens: TokenContext;
}
