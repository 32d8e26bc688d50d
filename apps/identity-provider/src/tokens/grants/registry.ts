import type { GrantType, TokenRequestOf } from '@svc/schemas';
import { authorizationCode } from './authorization-code.js';
import { clientCredentials } from './client-credentials.js';
import { refreshToken } from './refresh-token.js';
import type { TokenGrant } from './token-grant.js';

/**
 * The token endpoint's grant types, one module each. Their names are GRANT_TYPES in
 * packages/schemas (what discovery and client registration read, and packages cannot import an
 * app): TypeScript refuses a name without its module here, and a test a module without its name.
 */
export const TOKEN_GRANTS: { [G in GrantType]: TokenGrant<TokenRequestOf<G>> } = {
  authorization_code: authorizationCode,
  refresh_token: refreshToken,
  client_credentials: clientCredentials,
};

/** The module of a `grant_type` as a request sends it (anything), or undefined when there is none. */
export const tokenGrant = (grantType: unknown): TokenGrant | undefined =>
  typeof grantType === 'string' && Object.hasOwn(TOKEN_GRANTS, grantType) ? TOKEN_GRANTS[grantType as GrantType] : undefined;
