/**
 * An essential acr the person's sign-in did not meet, after they were asked for it: the request
 * ends (denied, so nothing can approve it later) and the client hears why (OpenID Connect Core
 * §3.1.2.6, unmet_authentication_requirements), as it would hear of a refusal.
 */
import { authorizationFor, deny, redirectWith } from '../authorize/authorizations.js';
import type { ConsentDeps } from './deps.js';

export async function unmetRequirements(deps: ConsentDeps, a: { id: string }, userId: string): Promise<string> {
  const authorization = await authorizationFor(deps.db, a.id, userId);
  await deny(deps.db, authorization, deps.clock.now());
  return redirectWith(authorization.redirectUri, deps.config.issuer, {
    error: 'unmet_authentication_requirements',
    error_description: `${authorization.application.name} requires a stronger sign-in (acr ${authorization.acrValues.join(' ')}) than this one`,
    state: authorization.state ?? undefined,
  });
}
