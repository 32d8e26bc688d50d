import { isUuid } from '@svc/schemas';
import { PresetError, type Rejection } from '../errors.js';
import { jwtVerify, type JWTPayload } from 'jose';
import { type AccessClaims, type Confirmation, type Grant, wellFormedConfirmation } from './grant.js';
import type { TokenContext } from './token-context.js';
import { SIGNING_ALGORITHMS } from '../keys/signing-keys.js';

export type Verified<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };

/** Our algorithms (RS256, PS256) and keys, our issuer, our resource as `aud`, typ at+jwt, not expired. */
async function verifiedPayload(ctx: TokenContext, keySet: Awaited<ReturnType<TokenContext['keys']['keySet']>>, token: string): Promise<Verified<JWTPayload>> {
  try {
    const { payload } = await jwtVerify(token, keySet, {
      algorithms: [...SIGNING_ALGORITHMS],
      issuer: ctx.issuer,
      audience: ctx.resource,
      typ: 'at+jwt',
      currentDate: ctx.clock.now(),
    });
    return { ok: true, value: payload };
  } catch (err) {
    return { ok: false, rejection: (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
  }
}

/** A user's access token (it names its authorization), checked as `verifiedPayload` says. No I/O beyond the cached key set. */
export async function verifyAccessJwt(ctx: TokenContext, token: string): Promise<Verified<AccessClaims>> {
  const keySet = await ctx.keys.keySet();
  const now = ctx.clock.now();
  const known = ctx.verified.get(keySet, token);
  if (known) return known.exp * 1000 > now.getTime() ? { ok: true, value: known } : { ok: false, rejection: 'expired' };
  const verified = await verifiedPayload(ctx, keySet, token);
  if (!verified.ok) return verified;
  const claims = verified.value as unknown as AccessClaims;
  if (
    typeof claims.jti !== 'string' ||
    typeof claims.authorization_id !== 'string' ||
    !isUuid(claims.authorization_id) ||
    typeof claims.scope !== 'string' ||
    typeof claims.exp !== 'number' ||
    !wellFormedConfirmation(claims.cnf)
  ) {
    return { ok: false, rejection: 'invalid' };
  }
  ctx.verified.set(token, claims);
  return { ok: true, value: claims };
}

/** What a client's token for itself carries (client_credentials): no user, no authorization. */
export interface ClientClaims {
  sub: string;
  client_id: string;
  scope: string;
  jti: string;
  exp: number;
  iat?: number;
  aud: string;
  cnf?: Confirmation;
}

/** A client's own access token (client_credentials): `sub` is the client, and no authorization is named. */
export async function verifyClientJwt(ctx: TokenContext, token: string): Promise<Verified<ClientClaims>> {
  const verified = await verifiedPayload(ctx, await ctx.keys.keySet(), token);
  if (!verified.ok) return verified;
  const claims = verified.value as unknown as ClientClaims & { authorization_id?: unknown };
  const wellFormed =
    claims.authorization_id === undefined &&
    typeof claims.client_id === 'string' &&
    claims.sub === claims.client_id &&
    typeof claims.jti === 'string' &&
    typeof claims.scope === 'string' &&
    typeof claims.exp === 'number' &&
    wellFormedConfirmation(claims.cnf);
  return wellFormed ? { ok: true, value: claims } : { ok: false, rejection: 'invalid' };
}

/**
 * The client behind a live client token: active, and the token not revoked (one round trip, so
 * every replica refuses a revoked one at once).
 */
export async function loadTokenClient(ctx: TokenContext, claims: ClientClaims): Promise<Verified<{ applicationId: string; organizationId: string }>> {
  const [row] = await ctx.db.$queryRaw<{ id: string; organizationId: string; status: string; tokenRevoked: boolean }[]>`
    SELECT app.id, app."organizationId", app.status::text AS status,
           EXISTS (SELECT 1 FROM "RevokedAccessToken" r WHERE r.jti = ${claims.jti}) AS "tokenRevoked"
    FROM "Application" app WHERE app."clientId" = ${claims.client_id}`;
  if (row?.status !== 'active' || row.tokenRevoked) return { ok: false, rejection: 'revoked' };
  return { ok: true, value: { applicationId: row.id, organizationId: row.organizationId } };
}

interface GrantRow {
  applicationId: string;
  status: string;
  appStatus: string;
  userId: string | null;
  approvedAt: Date | null;
  grantedScopes: string[];
  windowSeconds: number;
  dataVersion: bigint | null;
  email: string | null;
  serviceId: string | null;
  userUpdatedAt: Date | null;
  primaryWallet: string | null;
  tokenRevoked: boolean;
}

/**
 * The grant behind a verified token, refused when the token or its authorization is revoked or the
 * client is: from this replica's grant cache while its change listener is live, else from the
 * database (one round trip), so a revocation is refused by every replica (see GrantCache).
 */
export async function loadGrant(ctx: TokenContext, claims: AccessClaims): Promise<Verified<Grant>> {
  const cached = ctx.grants.get(claims.jti);
  if (cached) return { ok: true, value: cached };
  const sequence = ctx.grants.sequence;
  const [row] = await ctx.db.$queryRaw<GrantRow[]>`
    SELECT a."applicationId" AS "applicationId", a.status::text AS "status", app.status::text AS "appStatus", a."userId", a."approvedAt", a."grantedScopes",
           app."presetCacheTtlSeconds" AS "windowSeconds", u."dataVersion", u.email, u."serviceId", u."updatedAt" AS "userUpdatedAt",
           (SELECT w.address FROM "Wallet" w WHERE w."userId" = a."userId" ORDER BY w."isPrimary" DESC, w."createdAt" ASC LIMIT 1) AS "primaryWallet",
           EXISTS (SELECT 1 FROM "RevokedAccessToken" r WHERE r.jti = ${claims.jti}) AS "tokenRevoked"
    FROM "Authorization" a
    JOIN "Application" app ON app.id = a."applicationId"
    LEFT JOIN "User" u ON u.id = a."userId"
    WHERE a.id = ${claims.authorization_id}::uuid`;
  if (!row || row.tokenRevoked || row.appStatus !== 'active' || !['approved', 'consumed'].includes(row.status) || !row.userId || !row.approvedAt) {
    return { ok: false, rejection: 'revoked' };
  }
  const grant: Grant = {
    authorizationId: claims.authorization_id,
    userId: row.userId,
    grantedScopes: row.grantedScopes,
    dataWindowEndsAt: new Date(row.approvedAt.getTime() + row.windowSeconds * 1000),
    dataVersion: String(row.dataVersion ?? 0),
    user: { email: row.email!, serviceId: row.serviceId!, updatedAt: row.userUpdatedAt!, primaryWallet: row.primaryWallet },
  };
  ctx.grants.set(claims.jti, { grant, applicationId: row.applicationId, expiresAt: claims.exp * 1000 }, sequence);
  return { ok: true, value: grant };
}

/** Preset data and user info may be read only inside the authorization's data window (E4010). */
export function assertDataWindow(grant: Grant, now: Date): void {
  if (grant.dataWindowEndsAt <= now) {
    throw new PresetError('E4010', 'The data window of this authorization is over; send the user through authorization again', {
      subcode: 'data_window_over',
      context: { authorization_id: grant.authorizationId, window_ended_at: grant.dataWindowEndsAt.toISOString() },
    });
  }
}
