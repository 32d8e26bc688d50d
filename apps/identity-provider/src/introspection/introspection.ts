import type { z } from 'zod';
import type { ZIntrospectionResponse } from '@svc/schemas';
import { sha256Hex } from '@svc/secrets';
import type { Application } from '../clients/application.js';
import { appScopedUserId } from '../keys/keyed.js';
import { signJws } from '../keys/jws.js';
import { signingAlgorithmOf } from '../clients/signing-algorithms.js';
import { loadGrant, loadTokenClient, verifyAccessJwt, verifyClientJwt } from '../tokens/access-tokens.js';
import { readRefreshToken } from '../tokens/refresh/refresh-tokens.js';
import type { TokenContext } from '../tokens/token-context.js';
import type { AccessClaims } from '../tokens/grant.js';
import { grantedDetails } from '../authorize/authorization-details.js';
import { credentialData, credentialDetailsOf } from './credential-data.js';

export type Introspection = z.infer<typeof ZIntrospectionResponse>;

/** RFC 7662 §2.2: whatever is not active says nothing more, not even why. */
export const INACTIVE: Introspection = { active: false };

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * An access token of `app`'s, verified as a bearer request would verify it (signature, issuer,
 * audience, expiry) and live: neither it, its authorization nor its client revoked.
 */
async function accessToken(ctx: TokenContext, app: Application, token: string): Promise<Introspection | undefined> {
  const verified = await verifyAccessJwt(ctx, token);
  if (!verified.ok) return undefined;
  const claims = verified.value;
  if (claims.client_id !== app.clientId) return undefined;
  if (!(await loadGrant(ctx, claims)).ok) return undefined;
  return {
    active: true,
    scope: claims.scope,
    ...tokenFacts(ctx, claims),
    sub: claims.sub,
  };
}

/** What any live access token's answer says of the token itself. */
function tokenFacts(ctx: TokenContext, claims: AccessClaims) {
  const jkt = claims.cnf?.jkt;
  const x5t = claims.cnf?.['x5t#S256'];
  return {
    client_id: claims.client_id,
    token_type: jkt ? ('DPoP' as const) : ('Bearer' as const),
    exp: claims.exp,
    ...(claims.iat !== undefined ? { iat: claims.iat } : {}),
    aud: claims.aud,
    iss: ctx.issuer,
    jti: claims.jti,
    ...(jkt ? { cnf: { jkt } } : x5t ? { cnf: { 'x5t#S256': x5t } } : {}),
    authorization_id: claims.authorization_id,
  };
}

/**
 * A wallet's access token as the credential issuer's own client learns of it (OpenID4VCI's
 * authorization code flow): only a live token issued for that issuer (`aud`, RFC 8707) that grants
 * credentials, inside its authorization's data window (the client's preset_cache_ttl_seconds after
 * the approval, as for every read of the person's data); with what was granted and what the
 * person's data says for each credential now, and nothing else of the person (no `sub`, no scope).
 */
async function walletToken(ctx: TokenContext, token: string, credentialIssuer: string): Promise<Introspection | undefined> {
  const verified = await verifyAccessJwt(ctx, token);
  if (!verified.ok) return undefined;
  const claims = verified.value;
  if (!(Array.isArray(claims.aud) ? claims.aud : [claims.aud]).includes(credentialIssuer)) return undefined;
  const grant = await loadGrant(ctx, claims);
  if (!grant.ok || grant.value.dataWindowEndsAt <= ctx.clock.now()) return undefined;
  const details = await credentialDetailsOf(ctx, claims.authorization_id);
  if (details.length === 0) return undefined;
  return {
    active: true,
    ...tokenFacts(ctx, claims),
    authorization_details: grantedDetails(details),
    credential_data: await credentialData(ctx, grant.value.userId, details),
  };
}

/** `app`'s token for itself (client_credentials), live: not revoked, its client active. */
async function clientToken(ctx: TokenContext, app: Application, token: string): Promise<Introspection | undefined> {
  const verified = await verifyClientJwt(ctx, token);
  if (!verified.ok || verified.value.client_id !== app.clientId) return undefined;
  if (!(await loadTokenClient(ctx, verified.value)).ok) return undefined;
  const { scope, client_id, exp, iat, sub, aud, jti, cnf } = verified.value;
  return {
    active: true,
    scope,
    client_id,
    token_type: cnf?.jkt ? 'DPoP' : 'Bearer',
    exp,
    ...(iat !== undefined ? { iat } : {}),
    sub,
    aud,
    iss: ctx.issuer,
    jti,
    ...(cnf?.jkt ? { cnf: { jkt: cnf.jkt } } : cnf?.['x5t#S256'] ? { cnf: { 'x5t#S256': cnf['x5t#S256'] } } : {}),
  };
}

/** A refresh token of `app`'s that would rotate now: not rotated, revoked or expired, its grant alive. */
async function refreshToken(ctx: TokenContext, app: Application, token: string): Promise<Introspection | undefined> {
  const row = await readRefreshToken(ctx.sql, sha256Hex(token));
  const live =
    row &&
    row.applicationId === app.id &&
    !row.rotatedAt &&
    !row.revokedAt &&
    row.expiresAt > ctx.clock.now() &&
    (row.status === 'approved' || row.status === 'consumed') &&
    row.userId;
  if (!live) return undefined;
  return {
    active: true,
    scope: row.scopes.join(' '),
    client_id: app.clientId,
    exp: seconds(row.expiresAt),
    sub: appScopedUserId(ctx.secret, app.organizationId, row.userId!),
    iss: ctx.issuer,
    ...(row.dpopJkt ? { cnf: { jkt: row.dpopJkt } } : {}),
    authorization_id: row.authorizationId,
  };
}

/**
 * What `app` may learn of a token: active with its claims when it is a live token issued to `app`,
 * else inactive (another client's token is inactive too: its existence is not revealed). The
 * credential issuer's client is the one exception: it learns of wallets' tokens that grant credentials. The hint
 * orders the search (RFC 7662 §2.1); the token's form decides which kinds it can be at all.
 */
export async function introspect(
  ctx: TokenContext,
  app: Application,
  token: string,
  hint: string | undefined,
  credentialIssuer?: { clientId: string; url: string },
): Promise<Introspection> {
  // The configured credential issuer's client asks about wallets' access tokens (OpenID4VCI's
  // authorization code flow), never about their refresh tokens; and about its own, as any client.
  if (credentialIssuer?.clientId === app.clientId && token.split('.').length === 3) {
    const wallet = await walletToken(ctx, token, credentialIssuer.url);
    if (wallet) return wallet;
  }
  const kinds = [
    ...(token.split('.').length === 3 ? [accessToken, clientToken] : []),
    ...(/^(sbx_)?svcrt_[A-Za-z0-9]{1,100}$/.test(token) ? [refreshToken] : []),
  ];
  if (hint === 'refresh_token') kinds.reverse();
  for (const kind of kinds) {
    const found = await kind(ctx, app, token);
    if (found) return found;
  }
  return INACTIVE;
}

/**
 * RFC 9701: the same answer as a JWT signed by this issuer for `app` (`aud`), for a resource
 * server that must hold on to proof of what it was told.
 */
export async function signedIntrospection(ctx: TokenContext, app: Application, answer: Introspection): Promise<string> {
  const signer = await ctx.keys.signer(signingAlgorithmOf(app, 'introspection'));
  return signJws(
    signer,
    { typ: 'token-introspection+jwt' },
    { iss: ctx.issuer, aud: app.clientId, iat: seconds(ctx.clock.now()), token_introspection: answer },
  );
}
