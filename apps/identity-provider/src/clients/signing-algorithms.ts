import type { SigningAlgorithm } from '../keys/signing-keys.js';
import type { Application } from './application.js';

/** What the server signs for a client. */
export type SignedForClient = 'access_token' | 'id_token' | 'logout_token' | 'introspection';

/**
 * The algorithm the server signs `what` with for `app`: PS256 for everything under the FAPI 2.0
 * profile; otherwise what the client registered (id_token_signed_response_alg also for its logout
 * tokens, introspection_signed_response_alg), and RS256 by default, as OpenID Connect says.
 * Access tokens of other clients stay RS256: resource servers verify them by the published keys.
 */
export function signingAlgorithmOf(
  app: Pick<Application, 'fapiProfile' | 'idTokenSignedResponseAlg' | 'introspectionSignedResponseAlg'>,
  what: SignedForClient,
): SigningAlgorithm {
  if (app.fapiProfile === 'fapi2') return 'PS256';
  const registered = what === 'introspection' ? app.introspectionSignedResponseAlg : what === 'access_token' ? null : app.idTokenSignedResponseAlg;
  return registered === 'PS256' ? 'PS256' : 'RS256';
}
