import { randomUUID } from 'node:crypto';
import type { RevocationReason } from '@svc/schemas';
import { walletApprovalRevoked } from '@svc/db';
import { authorizationRevoked, recordWebhookEvent } from '../webhook-outbox/events.js';
import { randomBase62 } from '@svc/secrets';
import type { Application } from '../clients/application.js';
import { grantedDetails, storedDetails } from '../authorize/authorization-details.js';
import { appScopedUserId, clientSessionId } from '../keys/keyed.js';
import { forgetPresetData } from './preset-cache-entry.js';
import { signJws } from '../keys/jws.js';
import type { SigningAlgorithm } from '../keys/signing-keys.js';
import { signingAlgorithmOf } from '../clients/signing-algorithms.js';
import type { TokenContext } from './token-context.js';
import { invalidClient } from '../errors.js';

export const REFRESH_TTL_SECONDS = 30 * 86_400;

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
    sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!),
  }: {
    app: Application;
    /** With the sign-in it was approved in, when a person signed in for it (not for the client user-token). */
    authorization: { id: string; userId: string | null } & Partial<SignedInWith>;
    scopes: string[];
    jkt?: string | undefined;
    x5t?: string | undefined;
    /** Resources beside this service's data API the token is for (the credential issuer, for a wallet's credentials). */
    audience?: string[] | undefined;
    /** The user's app-scoped id, when the caller has it already (an HMAC not worth making twice). */
    sub?: string | undefined;
  },
): Promise<string> {
  const aud = audience?.length ? [ctx.resource, ...audience] : ctx.resource;
  return signToken(
    ctx,
    {
      sub,
      aud,
      client_id: app.clientId,
      scope: scopes.join(' '),
      authorization_id: a.id,
      jti: randomUUID(),
      ...signInClaims(a),
      ...confirmation(jkt, x5t),
    },
    'at+jwt',
    app.accessTokenTtlSeconds,
    signingAlgorithmOf(app, 'access_token'),
  );
}

/** The sign-in a grant was approved in: its time, acr and amr (null for grants older than acr). */
export interface SignedInWith {
  authTime: Date | null;
  acr: string | null;
  amr: string[];
}

/** OpenID Connect's auth_time, acr and amr of a grant, for its id_tokens and (RFC 9470) access tokens. */
export const signInClaims = (a: Partial<SignedInWith>) => ({
  ...(a.authTime ? { auth_time: seconds(a.authTime) } : {}),
  ...(a.acr ? { acr: a.acr, amr: a.amr ?? [] } : {}),
});

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
  /**
   * WALLET_ATTESTATION_REQUIRED is on and the request presented no wallet attestation: a grant that
   * carries credentials is then refused (checkWalletAttested).
   */
  unattestedWallet?: boolean | undefined;
}

/**
 * HAIP 1.0 under WALLET_ATTESTATION_REQUIRED: a grant that carries credentials was pushed by an
 * attested wallet, and its code and refresh tokens are good only in that wallet's attested
 * requests; otherwise whoever holds a copy (a public client has no other authentication) would get
 * the credentials' tokens without being the wallet. Answered as PAR answers a request for
 * credentials without an attestation.
 */
export function checkWalletAttested(terms: TokenRequestTerms, authorizationDetails: unknown): void {
  if (terms.unattestedWallet && storedDetails(authorizationDetails).length > 0)
    throw invalidClient(
      'This grant carries credentials: its tokens need a wallet attestation here: send OAuth-Client-Attestation and OAuth-Client-Attestation-PoP',
    );
}

/** What the tokens of a grant are made from: the authorization and, for a code exchange, its nonce. */
export interface GrantHolder extends SignedInWith {
  id: string;
  userId: string | null;
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
export async function tokenResponse(ctx: TokenContext, { app, holder: a, scopes, refreshToken, jkt, x5t, now }: TokenResponseParts) {
  const sub = appScopedUserId(ctx.secret, app.organizationId, a.userId!);
  const ttl = app.accessTokenTtlSeconds;
  // RFC 9396 §7 and RFC 8707: a grant of credentials is for the credential issuer too (`aud`), and
  // every token response of it, refreshed ones included, says what it grants.
  const details = storedDetails(a.authorizationDetails);
  const [accessToken, idToken] = await Promise.all([
    signAccessToken(ctx, { app, authorization: a, scopes, jkt, x5t, audience: details[0]?.locations, sub }),
    scopes.includes('openid')
      ? signToken(
          ctx,
          {
            sub,
            aud: app.clientId,
            authorization_id: a.id,
            auth_time: seconds(a.authTime ?? now),
            ...signInClaims({ acr: a.acr, amr: a.amr }),
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
export const refreshBinding = (app: Application, jkt: string | undefined) => (jkt && app.isPublic ? jkt : null);

export const newRefreshToken = (ctx: TokenContext) => ctx.environment.mark(`svcrt_${randomBase62(43)}`);

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
