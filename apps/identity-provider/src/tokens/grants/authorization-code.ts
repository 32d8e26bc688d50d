import { createHash } from 'node:crypto';
import { type TokenRequestOf, ZAuthorizationCodeTokenRequest } from '@svc/schemas';
import { constantTimeEqual, sha256Hex } from '@svc/secrets';
import { invalidGrant } from '../../errors.js';
import { forgetCode } from '../../authorize/authorizations.js';
import type { Application } from '../../clients/application.js';
import type { TokenContext } from '../token-context.js';
import type { TokenGrant } from './token-grant.js';
import {
  checkWalletAttested,
  newRefreshToken,
  REFRESH_TTL_SECONDS,
  refreshBinding,
  revokeAuthorization,
  type TokenRequestTerms,
  tokenResponse,
} from '../tokens.js';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Stores the first refresh token of a grant (a family of its own) and stamps the authorization, in one round trip. */
async function storeFirstRefreshToken(
  ctx: TokenContext,
  { authorizationId, tokenHash, scopes, jkt, now }: { authorizationId: string; tokenHash: string; scopes: string[]; jkt: string | null; now: Date },
): Promise<void> {
  const expiresAt = new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000);
  await ctx.db.$executeRaw`
    WITH issued AS (
      INSERT INTO "RefreshToken" (id, "authorizationId", "familyId", "tokenHash", scopes, "dpopJkt", "expiresAt", "createdAt")
      VALUES (gen_random_uuid(), ${authorizationId}::uuid, gen_random_uuid(), ${tokenHash}, ${scopes}::text[], ${jkt}, ${expiresAt}, ${now})
      RETURNING id
    )
    UPDATE "Authorization" SET "lastTokenIssuedAt" = ${now} WHERE id = ${authorizationId}::uuid`;
}

export async function exchangeCode(
  ctx: TokenContext,
  app: Application,
  input: { code: string; redirectUri: string; codeVerifier: string },
  grant: TokenRequestTerms,
) {
  const now = ctx.clock.now();
  const row = await ctx.db.authorizationCode.findUnique({ where: { codeHash: sha256Hex(input.code) }, include: { authorization: true } });
  if (!row) throw invalidGrant(ctx.environment.elsewhere('This authorization code', input.code) ?? 'The authorization code is invalid');
  const a = row.authorization;
  // Another client's code is refused before anything else: a spent code leaked to it must not let
  // it revoke the grant (and with it the person's wallet credentials) of the client it belongs to.
  if (a.applicationId !== app.id) throw invalidGrant('The authorization code was issued to another client');
  // A request without the wallet's attestation is not known to be the wallet's: refused, as a failed
  // client authentication is, before the code can be spent or its reuse revoke the wallet's grant.
  checkWalletAttested(grant, a.authorizationDetails);
  if (row.consumedAt) {
    // RFC 9700 §4.2.4: a second use means the code leaked; everything issued from it goes.
    await revokeAuthorization(ctx, a.id, 'reuse_detected');
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  if (row.expiresAt <= now) throw invalidGrant('The authorization code has expired');
  if (a.redirectUri !== input.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request');
  if (!VERIFIER.test(input.codeVerifier)) throw invalidGrant('code_verifier must be 43 to 128 unreserved characters');
  const challenge = createHash('sha256').update(input.codeVerifier).digest('base64url');
  if (!constantTimeEqual(challenge, a.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge');
  if (a.status !== 'approved') throw invalidGrant(`The authorization is ${a.status}`);
  // RFC 9449 §10: a code bound to a DPoP key is exchanged only with a proof signed by that key.
  if (a.dpopJkt && a.dpopJkt !== grant.jkt)
    throw invalidGrant('This authorization code is bound to a DPoP key (dpop_jkt): send a DPoP proof signed with that key');
  await grant.admit(a.userId ?? a.id);
  // Exactly one exchange wins; a concurrent second one finds the code consumed.
  const consumed = await ctx.db.authorizationCode.updateMany({ where: { id: row.id, consumedAt: null }, data: { consumedAt: now } });
  if (consumed.count !== 1) {
    await revokeAuthorization(ctx, a.id, 'reuse_detected');
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  await ctx.db.authorization.updateMany({ where: { id: a.id, status: 'approved' }, data: { status: 'consumed', consumedAt: now } });
  await forgetCode(ctx.cache, a.id);
  const refreshToken = newRefreshToken(ctx);
  const [response] = await Promise.all([
    tokenResponse(ctx, { app, holder: a, scopes: a.grantedScopes, refreshToken, jkt: grant.jkt, x5t: grant.x5t, now }),
    storeFirstRefreshToken(ctx, {
      authorizationId: a.id,
      tokenHash: sha256Hex(refreshToken),
      scopes: a.grantedScopes,
      jkt: refreshBinding(app, grant.jkt),
      now,
    }),
  ]);
  return response;
}

export const authorizationCode: TokenGrant<TokenRequestOf<'authorization_code'>> = {
  grantType: 'authorization_code',
  schema: ZAuthorizationCodeTokenRequest,
  handle: (ctx, app, request, terms) =>
    exchangeCode(ctx, app, { code: request.code, redirectUri: request.redirect_uri, codeVerifier: request.code_verifier }, terms),
};
