import { createHash, randomUUID } from 'node:crypto';
import type { RevocationReason } from '@svc/schemas';
import { walletApprovalRevoked } from '@svc/db';
import { authorizationRevoked, recordWebhookEvent } from '../webhook-outbox/events.js';
import { constantTimeEqual, randomBase62, sha256Hex } from '@svc/secrets';
import { invalidGrant, invalidRequest, invalidScope } from '../errors.js';
import { forgetCode } from '../authorize/authorizations.js';
import type { Application } from '../clients/application.js';
import { grantedDetails, storedDetails } from '../authorize/authorization-details.js';
import { appScopedUserId, clientSessionId } from '../keys/keyed.js';
import { forgetPresetData } from './preset-cache-entry.js';
import { signJws } from '../keys/jws.js';
import type { SigningAlgorithm } from '../keys/signing-keys.js';
import { signingAlgorithmOf } from '../clients/signing-algorithms.js';
import type { TokenContext } from './token-context.js';
import { rotateRefreshToken, type PresentedRefreshToken, readRefreshToken } from './refresh/refresh-tokens.js';
import { recallRotation, rememberRotation } from './refresh/refresh-retry.js';

export const REFRESH_TTL_SECONDS = 30 * 86_400;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A JWT of this issuer: `iat`, `exp` and `iss` set here, signed with the current key of `alg` (RS256 unless said). */
export async function signToken(ctx: TokenContext, claims: object, typ: string, expiresIn: number, alg: SigningAlgorithm = 'RS256'): Promise<string> {
  const now = seconds(ctx.clock.now());
  return signJws(await ctx.keys.signer(alg), { typ }, { ...claims, iat: now, exp: now + expiresIn, iss: ctx.issuer });
}

/**
 * An RFC 9068 access token for `a`'s user, carrying `scopes`, with the client's lifetime; bound to
 * a DPoP key (`cnf.jkt`, RFC 9449 §6) when `jkt` is given.
 */
export function signAccessToken(
  ctx: TokenContext,
  {
    app,
    authorization: a,
    scopes,
    jkt,
    x5t,
    audience,
  }: {
    app: Application;
    authorization: { id: string; userId: string | null };
    scopes: string[];
    jkt?: string | undefined;
    x5t?: string | undefined;
    /** Resources beside this service's data API the token is for (the credential issuer, for a wallet's credentials). */
    audience?: string[] | undefined;
  },
): Promise<string> {
  const sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!);
  const aud = audience?.length ? [ctx.resource, ...audience] : ctx.resource;
  return signToken(
    ctx,
    { sub, aud, client_id: app.clientId, scope: scopes.join(' '), authorization_id: a.id, jti: randomUUID(), ...confirmation(jkt, x5t) },
    'at+jwt',
    app.accessTokenTtlSeconds,
    signingAlgorithmOf(app, 'access_token'),
  );
}

/**
 * What an access token is bound to (RFC 7800 `cnf`): the DPoP key's thumbprint (RFC 9449 §6), or
 * else the client certificate's (RFC 8705 §3.1).
 */
export const confirmation = (jkt: string | undefined, x5t: string | undefined) => (jkt ? { cnf: { jkt } } : x5t ? { cnf: { 'x5t#S256': x5t } } : {});

/** How a token request is bound and admitted. */
export interface TokenRequestTerms {
  /** The thumbprint of the DPoP key that signed the request's proof, if any. */
  jkt?: string | undefined;
  /** The thumbprint of the certificate the client authenticated with (mutual TLS), if any. */
  x5t?: string | undefined;
  /**
   * Charges the client's rate limit (the end user's share of it) once the request has proven itself
   * (a valid code with its verifier, or a live refresh token), before anything is written:
   * failures never use the budget. `holder`: the user the grant belongs to.
   */
  admit: (holder: string) => Promise<void>;
}

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

/** What the tokens of a grant are made from: the authorization and, for a code exchange, its nonce. */
interface GrantHolder {
  id: string;
  userId: string | null;
  authTime: Date | null;
  /** The sign-in session it was approved in: the id_token's sid (per client). */
  sessionId: string | null;
  nonce?: string | null;
  /** RFC 9396: credentials granted for a wallet, stored with the authorization. */
  authorizationDetails?: unknown;
}

/** What one token response is made of. */
interface TokenResponseParts {
  app: Application;
  holder: GrantHolder;
  scopes: string[];
  refreshToken: string;
  jkt: string | undefined;
  x5t: string | undefined;
  now: Date;
}

/**
 * The token response around an already stored `refreshToken`: access token and id token (with
 * `openid`), signed side by side. With DPoP the access token is bound to the key.
 */
async function tokenResponse(ctx: TokenContext, { app, holder: a, scopes, refreshToken, jkt, x5t, now }: TokenResponseParts) {
  const sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!);
  const ttl = app.accessTokenTtlSeconds;
  // RFC 9396 §7 and RFC 8707: a grant of credentials is for the credential issuer too (`aud`), and
  // every token response of it, refreshed ones included, says what it grants.
  const details = storedDetails(a.authorizationDetails);
  const [accessToken, idToken] = await Promise.all([
    signAccessToken(ctx, { app, authorization: a, scopes, jkt, x5t, audience: details[0]?.locations }),
    scopes.includes('openid')
      ? signToken(
          ctx,
          {
            sub,
            aud: app.clientId,
            authorization_id: a.id,
            auth_time: seconds(a.authTime ?? now),
            ...(a.nonce ? { nonce: a.nonce } : {}),
            ...(a.sessionId ? { sid: clientSessionId(ctx.secret, app.clientId, a.sessionId) } : {}),
          },
          'JWT',
          ttl,
          signingAlgorithmOf(app, 'id_token'),
        )
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
    ...(details.length ? { authorization_details: grantedDetails(details) } : {}),
  };
}

/** A public client's refresh token is bound to its DPoP key (RFC 9449 §5); a confidential client's is bound by its authentication. */
const refreshBinding = (app: Application, jkt: string | undefined) => (jkt && app.isPublic ? jkt : null);

const newRefreshToken = (ctx: TokenContext) => ctx.environment.mark(`svcrt_${randomBase62(43)}`);

/**
 * Whether a second presentation of a rotated refresh token can be a retry of the client that
 * rotated it: only where that client can be proven, by its authentication (a confidential client)
 * or by its DPoP key (a bound token, whose retry must carry a proof of the same key). An unbound
 * public client's token proves nothing but possession: a thief presenting a copy within the window
 * would be handed the client's new pair, so for it every second presentation is reuse.
 */
const retryProvable = (app: Application, row: PresentedRefreshToken) => row.applicationId === app.id && (!app.isPublic || row.dpopJkt !== null);

/**
 * Reuse of a rotated refresh token means someone holds a stolen copy, and nobody can tell whether
 * it is the client or the thief (RFC 9700 §4.14.2): the whole grant goes, its refresh tokens and
 * every access token issued under it.
 */
async function refreshReused(ctx: TokenContext, authorizationId: string) {
  await revokeAuthorization(ctx, authorizationId, 'reuse_detected');
  return invalidGrant('The refresh token was already used; every token of this grant is revoked');
}

/**
 * Revokes an authorization and every refresh token issued under it; its access tokens die with it
 * (each bearer request checks the authorization), and its cached preset data is dropped.
 */
export async function revokeAuthorization(ctx: TokenContext, authorizationId: string, reason: RevocationReason): Promise<boolean> {
  const now = ctx.clock.now();
  const changed = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.authorization.updateMany({
      where: { id: authorizationId, status: { in: ['approved', 'consumed'] } },
      data: { status: 'revoked', revokedAt: now },
    });
    await tx.refreshToken.updateMany({ where: { authorizationId, revokedAt: null }, data: { revokedAt: now } });
    if (moved.count !== 1) return false;
    // Told to the client's organization in the same transaction: revoked if and only if it hears so.
    const a = await tx.authorization.findUniqueOrThrow({
      where: { id: authorizationId },
      select: { id: true, userId: true, application: { select: { clientId: true, organizationId: true } } },
    });
    if (a.userId) await recordWebhookEvent(tx, authorizationRevoked(ctx.secret, { ...a, userId: a.userId }, reason, now));
    // A wallet's approval: the credential issuer revokes what it issued on it.
    if (ctx.credentialIssuerClientId) await walletApprovalRevoked(tx, { authorizationId, issuerClientId: ctx.credentialIssuerClientId, reason });
    return true;
  });
  // This replica stops serving the grant now; the others when the change's notification reaches them.
  ctx.grants.announce('a', authorizationId);
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
  if (!row) throw invalidGrant(ctx.environment.elsewhere('This authorization code', input.code) ?? 'The authorization code is invalid');
  const a = row.authorization;
  // Another client's code is refused before anything else: a spent code leaked to it must not let
  // it revoke the grant (and with it the person's wallet credentials) of the client it belongs to.
  if (a.applicationId !== app.id) throw invalidGrant('The authorization code was issued to another client');
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

/** Why a presented refresh token cannot be rotated, checked in the order a client can act on. */
async function refusal(
  ctx: TokenContext,
  {
    app,
    row,
    token,
    asked,
    jkt,
    now,
  }: { app: Application; row: PresentedRefreshToken | undefined; token: string; asked: string[] | undefined; jkt: string | undefined; now: Date },
) {
  if (!row) return invalidGrant(ctx.environment.elsewhere('This refresh token', token) ?? 'The refresh token is invalid');
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
  const presented = { token: input.refreshToken, hash: presentedHash };
  const terms = { jkt: grant.jkt, asked };
  if (app.isPublic) {
    const row = await readRefreshToken(ctx.sql, presentedHash);
    if (row?.rotatedAt && retryProvable(app, row)) {
      // A concurrent rotation may still be remembering its answer: wait for it, as below.
      const replayed = await recallRotation(ctx, presented, terms, { rotatedAt: row.rotatedAt, wait: true });
      if (replayed) return replayed;
    }
    const refused = await refusal(ctx, { app, row, token: input.refreshToken, asked, jkt: grant.jkt, now });
    if (refused) throw refused;
    await grant.admit(row!.userId ?? row!.authorizationId);
  }
  const refreshToken = newRefreshToken(ctx);
  const successorHash = sha256Hex(refreshToken);
  const row = await rotateRefreshToken(ctx.sql, {
    presentedHash,
    applicationId: app.id,
    jkt: grant.jkt ?? null,
    asked: asked ?? null,
    tokenHash: successorHash,
    binding: refreshBinding(app, grant.jkt),
    now,
    expiresAt: new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000),
  });
  if (!row?.issuedScopes) {
    // Already rotated, by an earlier request whose answer was lost or by a concurrent one (whose
    // rotation this statement's snapshot did not see yet): the same client with the same key gets
    // that rotation's answer within the retry window. Anything else is reuse.
    if (row && retryProvable(app, row)) {
      // Not rotated for another reason (expired, revoked, another key): say so at once.
      const refused = row.rotatedAt ? undefined : await refusal(ctx, { app, row, token: input.refreshToken, asked, jkt: grant.jkt, now });
      if (refused) throw refused;
      const replayed = await recallRotation(ctx, presented, terms, { rotatedAt: row.rotatedAt, wait: true });
      if (replayed) return replayed;
    }
    throw (await refusal(ctx, { app, row, token: input.refreshToken, asked, jkt: grant.jkt, now })) ?? (await refreshReused(ctx, row!.authorizationId));
  }
  // OIDC Core §12.2: an id_token from a refresh carries no nonce.
  const holder = {
    id: row.authorizationId,
    userId: row.userId,
    authTime: row.authTime,
    sessionId: row.sessionId,
    authorizationDetails: row.authorizationDetails,
  };
  const response = await tokenResponse(ctx, { app, holder, scopes: row.issuedScopes, refreshToken, jkt: grant.jkt, x5t: grant.x5t, now });
  // Not waited for: the answer need not wait on the store, and a retry that arrives before the
  // entry does waits for it (recallRotation), as one that meets a rotation in flight does.
  void rememberRotation(ctx, presented, terms, successorHash, response);
  return response;
}
