import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '@svc/db';
import { constantTimeEqual, randomBase62, sha256Hex } from '@svc/secrets';
import { SignJWT, type JWTPayload } from 'jose';
import { invalidGrant, invalidRequest, invalidScope } from '../errors.js';
import { forgetCode } from './authorizations.js';
import type { Application } from './clients.js';
import { appScopedUserId } from './keyed.js';
import { forgetPresetData } from './preset-cache.js';
import type { VerifiedTokens } from './access-tokens.js';
import type { GrantCache } from './grant-cache.js';
import type { SigningKeys } from './signing-keys.js';
import type { Cache } from '@svc/kv';
import type { Clock } from '@svc/runtime';

export const REFRESH_TTL_SECONDS = 30 * 86_400;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface TokenContext {
  db: Db;
  cache: Cache;
  keys: SigningKeys;
  issuer: string;
  /** The `aud` of every access token: this service's data API (RFC 9068 §3), checked on the way in. */
  resource: string;
  secret: string;
  clock: Clock;
  verified: VerifiedTokens;
  grants: GrantCache;
}

type AuthorizationRow = NonNullable<Awaited<ReturnType<Db['authorization']['findUnique']>>>;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

async function sign(ctx: TokenContext, claims: JWTPayload, typ: string, expiresIn: number): Promise<string> {
  const { kid, key } = await ctx.keys.signer();
  const now = seconds(ctx.clock.now());
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid, typ })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .setIssuer(ctx.issuer)
    .sign(key);
}

/**
 * An RFC 9068 access token for `a`'s user, carrying `scopes`, with the client's lifetime; bound to
 * a DPoP key (`cnf.jkt`, RFC 9449 §6) when `jkt` is given.
 */
export function signAccessToken(
  ctx: TokenContext,
  app: Application,
  a: { id: string; userId: string | null },
  scopes: string[],
  jkt?: string,
): Promise<string> {
  const sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!);
  return sign(
    ctx,
    { sub, aud: ctx.resource, client_id: app.clientId, scope: scopes.join(' '), authorization_id: a.id, jti: randomUUID(), ...(jkt ? { cnf: { jkt } } : {}) },
    'at+jwt',
    app.accessTokenTtlSeconds,
  );
}

/** How a token request is bound and admitted. */
export interface TokenRequestTerms {
  /** The thumbprint of the DPoP key that signed the request's proof, if any. */
  jkt?: string | undefined;
  /**
   * Charges the client's rate limit once the request has proven itself (a valid code with its
   * verifier, or a live refresh token), before anything is written: failures never use the budget.
   */
  admit: () => Promise<void>;
}

/**
 * Rotates `rotating` (when refreshing), stores the new refresh token and stamps the authorization,
 * in one statement: one round trip, all or nothing. False when `rotating` was already rotated or
 * revoked (a concurrent use of the same refresh token won).
 */
async function persistRefreshToken(
  ctx: TokenContext,
  authorizationId: string,
  familyId: string,
  tokenHash: string,
  scopes: string[],
  jkt: string | null,
  now: Date,
  rotating: string | null,
): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000);
  const [row] = await ctx.db.$queryRaw<{ ok: boolean }[]>`
    WITH rotated AS (
      UPDATE "RefreshToken" SET "rotatedAt" = ${now} WHERE id = ${rotating}::uuid AND "rotatedAt" IS NULL AND "revokedAt" IS NULL RETURNING id
    ), go AS (
      SELECT 1 WHERE ${rotating}::uuid IS NULL OR EXISTS (SELECT 1 FROM rotated)
    ), issued AS (
      INSERT INTO "RefreshToken" (id, "authorizationId", "familyId", "tokenHash", scopes, "dpopJkt", "expiresAt", "createdAt")
      SELECT gen_random_uuid(), ${authorizationId}::uuid, ${familyId}::uuid, ${tokenHash}, ${scopes}::text[], ${jkt}, ${expiresAt}, ${now} FROM go
      RETURNING id
    ), stamped AS (
      UPDATE "Authorization" SET "lastTokenIssuedAt" = ${now} WHERE id = ${authorizationId}::uuid AND EXISTS (SELECT 1 FROM go) RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM issued) AS ok`;
  return row?.ok === true;
}

/**
 * Access token, id token (with `openid`) and a fresh refresh token of `familyId`, replacing
 * `rotating`. With DPoP the access token is bound to the key; so is a public client's refresh token
 * (RFC 9449 §5: a confidential client's refresh token is already bound by its authentication).
 */
async function tokenResponse(
  ctx: TokenContext,
  app: Application,
  a: AuthorizationRow,
  scopes: string[],
  familyId: string,
  rotating: string | null,
  jkt: string | undefined,
) {
  const now = ctx.clock.now();
  const refreshJkt = jkt && app.isPublic ? jkt : null;
  const sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!);
  const ttl = app.accessTokenTtlSeconds;
  const refreshToken = `svcrt_${randomBase62(43)}`;
  const [stored, accessToken, idToken] = await Promise.all([
    persistRefreshToken(ctx, a.id, familyId, sha256Hex(refreshToken), scopes, refreshJkt, now, rotating),
    signAccessToken(ctx, app, a, scopes, jkt),
    scopes.includes('openid')
      ? // OIDC Core §12.2: an id_token from a refresh carries no nonce.
        sign(
          ctx,
          { sub, aud: app.clientId, authorization_id: a.id, auth_time: seconds(a.authTime ?? now), ...(a.nonce && !rotating ? { nonce: a.nonce } : {}) },
          'JWT',
          ttl,
        )
      : undefined,
  ]);
  if (!stored) throw await refreshReused(ctx, a.id);
  return {
    access_token: accessToken,
    token_type: jkt ? ('DPoP' as const) : ('Bearer' as const),
    expires_in: ttl,
    scope: scopes.join(' '),
    granted_scopes: scopes,
    authorization_id: a.id,
    app_scoped_user_id: sub,
    issued_at: now.toISOString(),
    refresh_token: refreshToken,
    refresh_token_expires_in: REFRESH_TTL_SECONDS,
    refresh_issued_at: now.toISOString(),
    ...(idToken ? { id_token: idToken } : {}),
  };
}

/**
 * Reuse of a rotated refresh token means someone holds a stolen copy, and nobody can tell whether
 * it is the client or the thief (RFC 9700 §4.14.2): the whole grant goes, its refresh tokens and
 * every access token issued under it.
 */
async function refreshReused(ctx: TokenContext, authorizationId: string) {
  await revokeAuthorization(ctx, authorizationId);
  return invalidGrant('The refresh token was already used; every token of this grant is revoked');
}

/**
 * Revokes an authorization and every refresh token issued under it; its access tokens die with it
 * (each bearer request checks the authorization), and its cached preset data is dropped.
 */
export async function revokeAuthorization(ctx: TokenContext, authorizationId: string): Promise<boolean> {
  const now = ctx.clock.now();
  const changed = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.authorization.updateMany({
      where: { id: authorizationId, status: { in: ['approved', 'consumed'] } },
      data: { status: 'revoked', revokedAt: now },
    });
    await tx.refreshToken.updateMany({ where: { authorizationId, revokedAt: null }, data: { revokedAt: now } });
    return moved.count === 1;
  });
  // This replica stops serving the grant now; the others when the change's notification reaches them.
  ctx.grants.changed(`a:${authorizationId}`);
  await forgetPresetData(ctx.cache, authorizationId);
  return changed;
}

export async function exchangeCode(
  ctx: TokenContext,
  app: Application,
  input: { code: string; redirectUri: string; codeVerifier: string },
  grant: TokenRequestTerms,
) {
  const now = ctx.clock.now();
  const row = await ctx.db.authorizationCode.findUnique({ where: { codeHash: sha256Hex(input.code) }, include: { authorization: true } });
  if (!row) throw invalidGrant('The authorization code is invalid');
  const a = row.authorization;
  if (row.consumedAt) {
    // RFC 9700 §4.2.4: a second use means the code leaked; everything issued from it goes.
    await revokeAuthorization(ctx, a.id);
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  if (a.applicationId !== app.id) throw invalidGrant('The authorization code was issued to another client');
  if (row.expiresAt <= now) throw invalidGrant('The authorization code has expired');
  if (a.redirectUri !== input.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request');
  if (!VERIFIER.test(input.codeVerifier)) throw invalidGrant('code_verifier must be 43 to 128 unreserved characters');
  const challenge = createHash('sha256').update(input.codeVerifier).digest('base64url');
  if (!constantTimeEqual(challenge, a.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge');
  if (a.status !== 'approved') throw invalidGrant(`The authorization is ${a.status}`);
  await grant.admit();
  // Exactly one exchange wins; a concurrent second one finds the code consumed.
  const consumed = await ctx.db.authorizationCode.updateMany({ where: { id: row.id, consumedAt: null }, data: { consumedAt: now } });
  if (consumed.count !== 1) {
    await revokeAuthorization(ctx, a.id);
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  await ctx.db.authorization.updateMany({ where: { id: a.id, status: 'approved' }, data: { status: 'consumed', consumedAt: now } });
  await forgetCode(ctx.cache, a.id);
  return tokenResponse(ctx, app, a, a.grantedScopes, randomUUID(), null, grant.jkt);
}

export async function refresh(ctx: TokenContext, app: Application, input: { refreshToken: string; scope?: string | undefined }, grant: TokenRequestTerms) {
  const now = ctx.clock.now();
  const row = await ctx.db.refreshToken.findUnique({ where: { tokenHash: sha256Hex(input.refreshToken) }, include: { authorization: true } });
  if (!row) throw invalidGrant('The refresh token is invalid');
  if (row.authorization.applicationId !== app.id) throw invalidGrant('The refresh token was issued to another client');
  if (row.rotatedAt) throw await refreshReused(ctx, row.authorizationId);
  if (row.revokedAt) throw invalidGrant('The refresh token is revoked');
  if (row.expiresAt <= now) throw invalidGrant('The refresh token has expired');
  if (!['approved', 'consumed'].includes(row.authorization.status)) throw invalidGrant(`The authorization is ${row.authorization.status}`);
  // A bound refresh token is only good with a proof signed by the same key (RFC 9449 §5).
  if (row.dpopJkt && row.dpopJkt !== grant.jkt) throw invalidGrant('This refresh token is DPoP-bound: send a DPoP proof signed with the key it is bound to');
  let scopes = row.scopes;
  if (input.scope !== undefined) {
    const asked = [...new Set(input.scope.split(' ').filter(Boolean))];
    const wider = asked.filter((s) => !row.scopes.includes(s));
    if (wider.length) throw invalidScope(`Not granted before: ${wider.join(' ')}`);
    if (asked.length === 0) throw invalidRequest('scope must not be empty');
    scopes = row.scopes.filter((s) => asked.includes(s));
  }
  await grant.admit();
  return tokenResponse(ctx, app, row.authorization, scopes, row.familyId, row.id, grant.jkt);
}
