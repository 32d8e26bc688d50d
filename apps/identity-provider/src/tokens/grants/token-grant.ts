import type { TokenRequest } from '@svc/schemas';
import type { z } from 'zod';
import type { Application } from '../../clients/application.js';
import type { TokenContext } from '../token-context.js';
import type { TokenRequestTerms } from '../tokens.js';

/**
 * One grant type of the token endpoint, as node-oidc-provider keeps one under lib/actions/grants/:
 * its name, the token request it takes, and what answers that request once the endpoint has
 * authenticated the client, bound the request (DPoP or certificate) and knows how to admit it.
 */
export interface TokenGrant<R extends TokenRequest = TokenRequest> {
  grantType: R['grant_type'];
  /** Its member of ZTokenRequest, the contract the endpoint validates and publishes. */
  schema: z.ZodType<R>;
  // A method, so that the registry can hold every grant under one type: the endpoint hands each
  // the request it was looked up by, never another grant's.
  handle(ctx: TokenContext, app: Application, request: R, terms: TokenRequestTerms): Promise<object>;
}
