import type { Application } from '../clients/application.js';
import type { Config } from '../config.js';
import { credentialDetails } from './authorization-details.js';
import { type AuthorizeRequest, checkAuthorizeRequest } from './authorizations.js';
import type { RequestParameters } from './request-objects.js';

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
});

/** What /oauth/authorize and /oauth/par both check once client and redirect URI are good: the scopes, and the credentials asked for a wallet. */
export const checkedRequest = (config: Pick<Config, 'credentialIssuer'>, app: Application, request: AuthorizeRequest) => ({
  scopes: checkAuthorizeRequest(app, request),
  details: credentialDetails(request.authorizationDetails, config.credentialIssuer, app.allowedScopes),
});
