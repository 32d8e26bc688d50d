import { isUuid } from '@svc/schemas';
import { PresetError, type Rejection } from '../errors.js';
import { jwtVerify, type JWTPayload } from 'jose';
import type { TokenContext } from './tokens.js';

export interface AccessClaims {
  sub: string;
  client_id: string;
  scope: string;
  authorization_id: string;
  jti: string;
  exp: number;
  aud: string;
  /** RFC 9449 §6: the thumbprint of the DPoP key this token is bound to. */
  cnf?: { jkt?: string };
}

/** What a live access token grants, read in the same round trip that checks revocation. */
export interface Grant {
  authorizationId: string;
  userId: string;
  /** Everything the user approved; a refreshed token may carry fewer (its own `scope`). */
  grantedScopes: string[];
  /** Preset data may be read until this moment (approval + the client's preset_cache_ttl_seconds). */
  dataWindowEndsAt: Date;
  /** Changes whenever anything presets read from the user changes (database triggers). */
  dataVersion: string;
  /** What user info shows, read in the same round trip. */
  user: { email: string; serviceId: string; updatedAt: Date; primaryWallet: string | null };
}

export type Verified<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };

/**
 * Tokens whose signature and claims were already checked, by exact token string, per key set: a
 * client presents one access token many times in its lifetime, and RSA verification is the
 * costliest step of a bearer request. A key set with a key withdrawn starts an empty memo, and
 * expiry is checked on every use.
 */
export class VerifiedTokens {
  private keySet: unknown;
  private memo = new Map<string, AccessClaims>();

  constructor(private readonly max = 10_000) {}

  get(keySet: unknown, token: string): AccessClaims | undefined {
    if (keySet !== this.keySet) {
      this.keySet = keySet;
      this.memo = new Map();
    }
    return this.memo.get(token);
  }

  set(token: string, claims: AccessClaims): void {
    if (this.memo.size >= this.max) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(token, claims);
  }
}

/** RS256 only, our keys, our issuer, our resource as `aud`, typ at+jwt, not expired. No I/O beyond the cached key set. */
export async function verifyAccessJwt(ctx: TokenContext, token: string): Promise<Verified<AccessClaims>> {
  const keySet = await ctx.keys.keySet();
  const now = ctx.clock.now();
  const known = ctx.verified.get(keySet, token);
  if (known) return known.exp * 1000 > now.getTime() ? { ok: true, value: known } : { ok: false, rejection: 'expired' };
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet, { algorithms: ['RS256'], issuer: ctx.issuer, audience: ctx.resource, typ: 'at+jwt', currentDate: now }));
  } catch (err) {
    return { ok: false, rejection: (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
  }
  const claims = payload as unknown as AccessClaims;
  if (
    typeof claims.jti !== 'string' ||
    typeof claims.authorization_id !== 'string' ||
    !isUuid(claims.authorization_id) ||
    typeof claims.scope !== 'string' ||
    typeof claims.exp !== 'number' ||
    (claims.cnf !== undefined && typeof claims.cnf.jkt !== 'string')
  ) {
    return { ok: false, rejection: 'invalid' };
  }
  ctx.verified.set(token, claims);
  return { ok: true, value: claims };
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
  ctx.grants.set(claims.jti, grant, row.applicationId, claims.exp * 1000, sequence);
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
