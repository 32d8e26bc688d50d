import { randomUUID } from 'node:crypto';
import { CLIENT_SCOPES, type TokenRequestOf, ZClientCredentialsTokenRequest } from '@svc/schemas';
import type { Application } from '../../clients/application.js';
import { invalidRequest, invalidScope, unauthorizedClient } from '../../errors.js';
import type { TokenContext } from '../token-context.js';
import { confirmation, signToken } from '../tokens.js';
import { signingAlgorithmOf } from '../../clients/signing-algorithms.js';
import type { TokenGrant } from './token-grant.js';

const isClientScope = (scope: string): scope is (typeof CLIENT_SCOPES)[number] => (CLIENT_SCOPES as readonly string[]).includes(scope);

/**
 * The client_credentials grant (RFC 6749 §4.4): a confidential client's access token for itself,
 * for machine-to-machine calls such as the change list. It never carries a user or a scope of
 * user data: those exist only through a user's authorization. RFC 9068 §2.2: `sub` is the client
 * itself. No refresh token (§4.4.3): the client authenticates again instead.
 */
export async function issueClientToken(
  ctx: TokenContext,
  app: Application,
  input: { scope?: string | undefined },
  { jkt, x5t }: { jkt?: string | undefined; x5t?: string | undefined },
) {
  if (app.isPublic) throw unauthorizedClient('client_credentials is for confidential clients: a public client has no credentials of its own');
  const asked = input.scope === undefined ? [...CLIENT_SCOPES] : [...new Set(input.scope.split(' ').filter(Boolean))];
  if (asked.length === 0) throw invalidRequest('scope must not be empty');
  const foreign = asked.filter((s) => !isClientScope(s));
  if (foreign.length) {
    throw invalidScope(
      `Not a scope a client holds for itself: ${foreign.join(' ')} (a user's data needs that user's authorization: use the authorization code flow). Client scopes: ${CLIENT_SCOPES.join(' ')}`,
    );
  }
  const scope = asked.join(' ');
  const claims = { sub: app.clientId, aud: ctx.resource, client_id: app.clientId, scope, jti: randomUUID(), ...confirmation(jkt, x5t) };
  return {
    access_token: await signToken(ctx, claims, 'at+jwt', app.accessTokenTtlSeconds, signingAlgorithmOf(app, 'access_token')),
    token_type: jkt ? ('DPoP' as const) : ('Bearer' as const),
    expires_in: app.accessTokenTtlSeconds,
    scope,
    issued_at: ctx.clock.now().toISOString(),
  };
}

export const clientCredentials: TokenGrant<TokenRequestOf<'client_credentials'>> = {
  grantType: 'client_credentials',
  schema: ZClientCredentialsTokenRequest,
  handle: (ctx, app, request, { jkt, x5t }) => issueClientToken(ctx, app, { scope: request.scope }, { jkt, x5t }),
};
