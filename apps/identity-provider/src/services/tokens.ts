import { createHash, randomUUID } from 'node:crypto';
import type { Db, Sql } from '@svc/db';
import { constantTimeEqual, randomBase62, sha256Hex } from '@svc/secrets';
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
import { signRs256 } from './jws.js';
import { rotateRefreshToken, type PresentedRefreshToken, readRefreshToken } from './refresh-tokens.js';

export const REFRESH_TTL_SECONDS = 30 * 86_400;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface TokenContext {
  db: Db;
  sql: Sql;
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

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

async function sign(ctx: TokenContext, claims: object, typ: string, expiresIn: number): Promise<string> {
  const { kid, key } = await ctx.keys.signer();
  const now = seconds(ctx.clock.now());
  return signRs256(key, { kid, typ }, { ...claims, iat: now, exp: now + expiresIn, iss: ctx.issuer });
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

/** Stores the first refresh token of a grant (a family of its own) and stamps the authorization, in one round trip. */
async function storeFirstRefreshToken(
  ctx: TokenContext,
  authorizationId: string,
  tokenHash: string,
  scopes: string[],
  jkt: string | null,
  now: Date,
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

/** What the tokens of a grant are made from: the authorization and, for a code exchange, its nonce. */
interface GrantHolder {
  id: string;
  userId: string | null;
  authTime: Date | null;
  nonce?: string | null;
}

/**
 * The token response around an already stored `refreshToken`: access token and id token (with
 * `openid`), signed side by side. With DPoP the access token is bound to the key.
 */
async function tokenResponse(ctx: TokenContext, app: Application, a: GrantHolder, scopes: string[], refreshToken: string, jkt: string | undefined, now: Date) {
  const sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!);
  const ttl = app.accessTokenTtlSeconds;
  const [accessToken, idToken] = await Promise.all([
    signAccessToken(ctx, app, a, scopes, jkt),
    scopes.includes('openid')
      ? sign(ctx, { sub, aud: app.clientId, authorization_id: a.id, auth_time: seconds(a.authTime ?? now), ...(a.nonce ? { nonce: a.nonce } : {}) }, 'JWT', ttl)
      : undefined,
  ]);
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

/** A public client's refresh token is bound to its DPoP key (RFC 9449 §5); a confidential client's is bound by its authentication. */
const refreshBinding = (app: Application, jkt: string | undefined) => (jkt && app.isPublic ? jkt : null);

const newRefreshToken = () => `svcrt_${randomBase62(43)}`;

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
  const refreshToken = newRefreshToken();
  const [response] = await Promise.all([
    tokenResponse(ctx, app, a, a.grantedScopes, refreshToken, grant.jkt, now),
    storeFirstRefreshToken(ctx, a.id, sha256Hex(refreshToken), a.grantedScopes, refreshBinding(app, grant.jkt), now),
  ]);
  return response;
}

/** Why a presented refresh token cannot be rotated, checked in the order a client can act on. */
async function refusal(
  ctx: TokenContext,
  app: Application,
  row: PresentedRefreshToken | undefined,
  asked: string[] | undefined,
  jkt: string | undefined,
  now: Date,
) {
  if (!row) return invalidGrant('The refresh token is invalid');
  if (row.applicationId !== app.id) return invalidGrant('The refresh token was issued to another client');
  if (row.rotatedAt) return refreshReused(ctx, row.authorizationId);
  if (row.revokedAt) return invalidGrant('The refresh token is revoked');
  if (row.expiresAt <= now) return invalidGrant('The refresh token has expired');
  if (row.status !== 'approved' && row.status !== 'consumed') return invalidGrant(`The authorization is ${row.status}`);
  // A bound refresh token is only good with a proof signed by the same key (RFC 9449 §5).
  if (row.dpopJkt && row.dpopJkt !== jkt) return invalidGrant('This refresh token is DPoP-bound: send a DPoP proof signed with the key it is bound to');
  if (asked) {
    const wider = asked.filter((s) => !row.scopes.includes(s));
    if (wider.length) return invalidScope(`Not granted before: ${wider.join(' ')}`);
  }
  return undefined;
}

/**
 * Rotation in one round trip: one statement checks the presented token and its grant, marks it
 * rotated, stores its successor and stamps the authorization, all or nothing. Its answer says why
 * when nothing was rotated. A public client is charged only once its token proved valid, so its
 * token is read (and its budget charged) first.
 */
export async function refresh(ctx: TokenContext, app: Application, input: { refreshToken: string; scope?: string | undefined }, grant: TokenRequestTerms) {
  const now = ctx.clock.now();
  const presentedHash = sha256Hex(input.refreshToken);
  let asked: string[] | undefined;
  if (input.scope !== undefined) {
    asked = [...new Set(input.scope.split(' ').filter(Boolean))];
    if (asked.length === 0) throw invalidRequest('scope must not be empty');
  }
  if (app.isPublic) {
    const refused = await refusal(ctx, app, await readRefreshToken(ctx.sql, presentedHash), asked, grant.jkt, now);
    if (refused) throw refused;
    await grant.admit();
  }
  const refreshToken = newRefreshToken();
  const row = await rotateRefreshToken(ctx.sql, {
    presentedHash,
    applicationId: app.id,
    jkt: grant.jkt ?? null,
    asked: asked ?? null,
    tokenHash: sha256Hex(refreshToken),
    binding: refreshBinding(app, grant.jkt),
    now,
    expiresAt: new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000),
  });
  if (!row?.issuedScopes) {
    // Checked true but not rotated: a concurrent use of the same token won, which is reuse.
    throw (await refusal(ctx, app, row, asked, grant.jkt, now)) ?? (await refreshReused(ctx, row!.authorizationId));
  }
  // OIDC Core §12.2: an id_token from a refresh carries no nonce.
  return tokenResponse(ctx, app, { id: row.authorizationId, userId: row.userId, authTime: row.authTime }, row.issuedScopes, refreshToken, grant.jkt, now);
}
