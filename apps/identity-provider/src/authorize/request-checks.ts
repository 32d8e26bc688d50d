import type { Application } from '../clients/application.js';
import type { Config } from '../config.js';
import { CREDENTIAL_CONFIGURATION_IDS } from '@svc/schemas';
import { credentialDetails, credentialScopeDetails, mergedDetails } from './authorization-details.js';
import { type AuthorizeRequest, checkAuthorizeRequest } from './authorizations.js';
import type { RequestParameters } from './request-objects.js';
import { signInRequirementsOf } from './sign-in-requirements.js';

/** The parameters of an authorization request, as the checks and the stored row name them. */
export const authorizeRequestOf = (p: RequestParameters): AuthorizeRequest => ({
  scope: p.scope ?? '',
  responseType: p.response_type ?? '',
  codeChallenge: p.code_challenge,
  codeChallengeMethod: p.code_challenge_method,
  state: p.state,
  nonce: p.nonce,
  loginHint: p.login_hint,
  locale: p.locale,
  authorizationDetails: p.authorization_details,
  dpopJkt: p.dpop_jkt,
  signIn: { prompt: p.prompt, max_age: p.max_age, acr_values: p.acr_values, claims: p.claims },
});

/**
 * What /oauth/authorize and /oauth/par both check once client and redirect URI are good: the
 * scopes, and the credentials asked for a wallet, by `authorization_details` or by each
 * configuration's scope (HAIP 1.0), which is granted as its authorization detail would be; at
 * most 6 credentials both ways together (mergedDetails).
 */
export function checkedRequest(config: Pick<Config, 'credentialIssuer'>, app: Application, request: AuthorizeRequest) {
  const asked = request.scope.split(' ').filter(Boolean);
  // OpenID4VCI 1.0 §5.1.2: each credential configuration's `scope` is its id.
  const credentialScopes = config.credentialIssuer ? asked.filter((s) => (CREDENTIAL_CONFIGURATION_IDS as readonly string[]).includes(s)) : [];
  const dataScopes = asked.filter((s) => !credentialScopes.includes(s));
  const scopes = checkAuthorizeRequest(app, { ...request, scope: dataScopes.join(' ') }, credentialScopes.length > 0);
  const fromScopes = credentialScopeDetails(credentialScopes, config.credentialIssuer, app.allowedScopes);
  const details = mergedDetails(
    credentialDetails(request.authorizationDetails, config.credentialIssuer, app.allowedScopes),
    credentialScopes.length ? fromScopes : undefined,
  );
  return { scopes, details, requirements: signInRequirementsOf(app, request.signIn ?? {}) };
}
