import { type TokenRequestOf, ZRefreshTokenRequest } from '@svc/schemas';
import { sha256Hex } from '@svc/secrets';
import { invalidGrant, invalidRequest, invalidScope } from '../../errors.js';
import type { Application } from '../../clients/application.js';
import type { TokenContext } from '../token-context.js';
import { type PresentedRefreshToken, readRefreshToken } from '../refresh/refresh-tokens.js';
import { recallRotation, rememberRotation } from '../refresh/refresh-retry.js';
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
 * rotated and stores its successor, all or nothing (with the rotations of concurrent requests,
 * RefreshRotations). Its answer says why when nothing was rotated. A public client is charged only once its token proved valid, so its
 * token is read (and its budget charged) first.
 */
async function refresh(ctx: TokenContext, app: Application, input: { refreshToken: string; scope?: string | undefined }, grant: TokenRequestTerms) {
  const now = ctx.clock.now();
  const presentedHash = sha256Hex(input.refreshToken);
  let asked: string[] | undefined;
  if (input.scope !== undefined) {
    asked = [...new Set(input.scope.split(' ').filter(Boolean))];
    if (asked.length === 0) throw invalidRequest('scope must not be empty');
  }
  const presented = { token: input.refreshToken, hash: presentedHash };
  const terms = { jkt: grant.jkt, asked };
  // Read first where the token decides the request before it may be rotated: a public client's (its
  // budget is charged once the token proved valid) and, without the wallet attestation a credential
  // grant needs, any client's: not known to be the wallet's, that request is refused as a failed
  // client authentication is, before anything is replayed, rotated or revoked.
  const read = app.isPublic || grant.unattestedWallet ? await readRefreshToken(ctx.sql, presentedHash) : undefined;
  if (read?.applicationId === app.id) checkWalletAttested(grant, read.authorizationDetails);
  if (app.isPublic) {
    const row = read;
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
  const row = await ctx.rotations.rotate({
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
    // rotation this statement waited for): the same client with the same key gets that rotation's
    // answer within the retry window. Anything else is reuse.
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
    acr: row.acr,
    amr: row.amr ?? [],
    sessionId: row.sessionId,
    authorizationDetails: row.authorizationDetails,
  };
  const response = await tokenResponse(ctx, { app, holder, scopes: row.issuedScopes, refreshToken, jkt: grant.jkt, x5t: grant.x5t, now });
  // Not waited for: the answer need not wait on the store, and a retry that arrives before the
  // entry does waits for it (recallRotation), as one that meets a rotation in flight does.
  void rememberRotation(ctx, presented, terms, successorHash, response);
  return response;
}

export const refreshToken: TokenGrant<TokenRequestOf<'refresh_token'>> = {
  grantType: 'refresh_token',
  schema: ZRefreshTokenRequest,
  handle: (ctx, app, request, terms) => refresh(ctx, app, { refreshToken: request.refresh_token, scope: request.scope }, terms),
};
