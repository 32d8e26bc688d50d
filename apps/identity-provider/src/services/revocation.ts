import type { Db } from '@svc/db';
import { isUuid } from '@svc/schemas';
import { sha256Hex } from '@svc/secrets';
import { jwtVerify } from 'jose';
import type { Application } from './clients.js';
import { revokeAuthorization, type TokenContext } from './tokens.js';

export type TokenTypeHint = 'authorization' | 'refresh_token' | 'access_token';

export interface RevokeDetail {
  subject: 'token' | 'authorization';
  token_type?: 'refresh_token' | 'access_token';
  authorization_id?: string;
  client_id?: string;
  user_id?: string;
  status: 'revoked' | 'not_found' | 'invalid';
  reason?: string;
}

/** Who is revoking: a client (its own tokens and authorizations) or a user (their own authorizations). */
export type Revoker = { kind: 'client'; app: Application } | { kind: 'user'; userId: string };

async function ownedAuthorization(db: Db, id: string, who: Revoker) {
  if (!isUuid(id)) return null;
  const a = await db.authorization.findUnique({ where: { id }, include: { application: { select: { clientId: true } } } });
  if (!a) return null;
  const mine = who.kind === 'client' ? a.applicationId === who.app.id : a.userId === who.userId;
  return mine ? a : null;
}

export async function revokeAuthorizationFor(ctx: TokenContext, id: string, who: Revoker): Promise<RevokeDetail> {
  const a = await ownedAuthorization(ctx.db, id, who);
  if (!a) return { subject: 'authorization', authorization_id: id, status: 'not_found' };
  const changed = await revokeAuthorization(ctx, a.id);
  return {
    subject: 'authorization',
    authorization_id: a.id,
    client_id: a.application.clientId,
    status: changed || a.status === 'revoked' ? 'revoked' : 'invalid',
    ...(changed || a.status === 'revoked' ? {} : { reason: `the authorization is ${a.status}` }),
  };
}

/**
 * Revokes one token of the client's (RFC 7009: unknown tokens are reported, not refused). A refresh
 * token always takes its grant with it, every refresh and access token issued under the
 * authorization (RFC 7009 §2.1, RFC 9700 §2.2.2). An access token goes alone unless `cascade` asks
 * for its grant to go too.
 */
export async function revokeToken(
  ctx: TokenContext,
  token: string,
  app: Application,
  hint: TokenTypeHint | undefined,
  cascade: boolean,
): Promise<RevokeDetail> {
  const looksRefresh = token.startsWith('svcrt_');
  const looksJwt = token.split('.').length === 3;
  if (looksRefresh && hint !== 'access_token') {
    const row = await ctx.db.refreshToken.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { authorization: true } });
    if (!row || row.authorization.applicationId !== app.id) return { subject: 'token', token_type: 'refresh_token', status: 'not_found' };
    await revokeAuthorization(ctx, row.authorizationId);
    return { subject: 'token', token_type: 'refresh_token', authorization_id: row.authorizationId, client_id: app.clientId, status: 'revoked' };
  }
  if (looksJwt && hint !== 'refresh_token') {
    const jwks = await ctx.keys.keySet();
    let claims: { jti?: string; client_id?: string; authorization_id?: string; exp?: number };
    try {
      // Expired tokens may still be revoked; only the signature and issuer must hold.
      ({ payload: claims } = await jwtVerify(token, jwks, { algorithms: ['RS256'], issuer: ctx.issuer, typ: 'at+jwt', currentDate: new Date(0) }));
    } catch {
      return { subject: 'token', token_type: 'access_token', status: 'invalid', reason: 'not an access token of this issuer' };
    }
    if (claims.client_id !== app.clientId || !claims.jti || !claims.authorization_id)
      return { subject: 'token', token_type: 'access_token', status: 'not_found' };
    await ctx.db.revokedAccessToken.upsert({
      where: { jti: claims.jti },
      create: { jti: claims.jti, authorizationId: claims.authorization_id, expiresAt: new Date((claims.exp ?? 0) * 1000) },
      update: {},
    });
    ctx.grants.changed(`t:${claims.jti}`);
    if (cascade) await revokeAuthorization(ctx, claims.authorization_id);
    return { subject: 'token', token_type: 'access_token', authorization_id: claims.authorization_id, client_id: app.clientId, status: 'revoked' };
  }
  return { subject: 'token', status: 'invalid', reason: 'not a token this service issues' };
}
