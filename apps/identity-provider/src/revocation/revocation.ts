import type { Db } from '@svc/db';
import { isUuid } from '@svc/schemas';
import { sha256Hex } from '@svc/secrets';
import { jwtVerify } from 'jose';
import type { Application } from '../clients/application.js';
import type { TokenContext } from '../tokens/token-context.js';
import { revokeAuthorization } from '../tokens/tokens.js';
import { SIGNING_ALGORITHMS } from '../keys/signing-keys.js';

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
  const changed = await revokeAuthorization(ctx, a.id, who.kind);
  return {
    subject: 'authorization',
    authorization_id: a.id,
    client_id: a.application.clientId,
    status: changed || a.status === 'revoked' ? 'revoked' : 'invalid',
    ...(changed || a.status === 'revoked' ? {} : { reason: `the authorization is ${a.status}` }),
  };
}

type PresentedToken =
  | { kind: 'refresh_token'; authorizationId: string }
  | { kind: 'access_token'; authorizationId: string | null; jti: string; exp: number | undefined }
  | { kind: 'not_found'; tokenType: 'refresh_token' | 'access_token' }
  | { kind: 'invalid'; tokenType?: 'access_token'; reason: string };

/** What a presented token is, as far as `app` may know: its own refresh or access token, with its grant. */
async function readPresentedToken(ctx: TokenContext, token: string, app: Application, hint: TokenTypeHint | undefined): Promise<PresentedToken> {
  // This environment's own form: `sbx_svcrt_` in the sandbox.
  const looksRefresh = token.startsWith(ctx.environment.mark('svcrt_'));
  const looksJwt = token.split('.').length === 3;
  if (looksRefresh && hint !== 'access_token') {
    const row = await ctx.db.refreshToken.findUnique({
      where: { tokenHash: sha256Hex(token) },
      select: { authorizationId: true, authorization: { select: { applicationId: true } } },
    });
    if (!row || row.authorization.applicationId !== app.id) return { kind: 'not_found', tokenType: 'refresh_token' };
    return { kind: 'refresh_token', authorizationId: row.authorizationId };
  }
  if (looksJwt && hint !== 'refresh_token') {
    const jwks = await ctx.keys.keySet();
    let claims: { jti?: string; client_id?: string; authorization_id?: string; exp?: number };
    try {
      // Expired tokens may still be revoked; only the signature and issuer must hold.
      ({ payload: claims } = await jwtVerify(token, jwks, {
        algorithms: [...SIGNING_ALGORITHMS],
        issuer: ctx.issuer,
        typ: 'at+jwt',
        currentDate: new Date(0),
      }));
    } catch {
      return { kind: 'invalid', tokenType: 'access_token', reason: 'not an access token of this issuer' };
    }
    if (claims.client_id !== app.clientId || !claims.jti) return { kind: 'not_found', tokenType: 'access_token' };
    // The client's token for itself (client_credentials) belongs to no authorization.
    if (!claims.authorization_id) return { kind: 'access_token', authorizationId: null, jti: claims.jti, exp: claims.exp };
    return { kind: 'access_token', authorizationId: claims.authorization_id, jti: claims.jti, exp: claims.exp };
  }
  return { kind: 'invalid', reason: 'not a token this service issues' };
}

/**
 * The authorizations the presented tokens belong to (tokens of `app` only). A public client
 * proves nothing by its id, so it may revoke an authorization by id only together with a token
 * of that grant: the same proof RFC 7009 asks of it to revoke the token itself.
 */
export async function grantsOfTokens(ctx: TokenContext, tokens: string[], app: Application, hint: TokenTypeHint | undefined): Promise<Set<string>> {
  const read = await Promise.all(tokens.map((t) => readPresentedToken(ctx, t, app, hint)));
  return new Set(read.flatMap((r) => ((r.kind === 'refresh_token' || r.kind === 'access_token') && r.authorizationId ? [r.authorizationId] : [])));
}

/**
 * Revokes one token of the client's (RFC 7009: unknown tokens are reported, not refused). A refresh
 * token always takes its grant with it, every refresh and access token issued under the
 * authorization (RFC 7009 §2.1, RFC 9700 §2.2.2). An access token goes alone unless `cascade` asks
 * for its grant to go too.
 */
export async function revokeToken(
  ctx: TokenContext,
  { token, app, hint, cascade }: { token: string; app: Application; hint: TokenTypeHint | undefined; cascade: boolean },
): Promise<RevokeDetail> {
  const found = await readPresentedToken(ctx, token, app, hint);
  switch (found.kind) {
    case 'not_found':
      return { subject: 'token', token_type: found.tokenType, status: 'not_found' };
    case 'invalid':
      return { subject: 'token', ...(found.tokenType ? { token_type: found.tokenType } : {}), status: 'invalid', reason: found.reason };
    case 'refresh_token':
      await revokeAuthorization(ctx, found.authorizationId, 'client');
      return { subject: 'token', token_type: 'refresh_token', authorization_id: found.authorizationId, client_id: app.clientId, status: 'revoked' };
    case 'access_token':
      await ctx.db.revokedAccessToken.upsert({
        where: { jti: found.jti },
        create: { jti: found.jti, authorizationId: found.authorizationId, expiresAt: new Date((found.exp ?? 0) * 1000) },
        update: {},
      });
      ctx.grants.announce('t', found.jti);
      if (cascade && found.authorizationId) await revokeAuthorization(ctx, found.authorizationId, 'client');
      return {
        subject: 'token',
        token_type: 'access_token',
        ...(found.authorizationId ? { authorization_id: found.authorizationId } : {}),
        client_id: app.clientId,
        status: 'revoked',
      };
  }
}
