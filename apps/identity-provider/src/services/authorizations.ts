import type { Db } from '@svc/db';
import { HttpError, NotFoundError } from '@svc/http';
import type { Cache } from '@svc/kv';
import { isUuid, SCOPES, scopeDetail, withImplied } from '@svc/schemas';
import { randomBase62, sha256Hex } from '@svc/secrets';
import type { Application } from './clients.js';
import { appScopedUserId } from './keyed.js';

export const PENDING_TTL_SECONDS = 600;
export const CODE_TTL_SECONDS = 300;

export type AuthorizationRow = NonNullable<Awaited<ReturnType<Db['authorization']['findUnique']>>>;

/** An error after the redirect URI is trusted: sent back to the client (RFC 6749 §4.1.2.1). */
export class RedirectableError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export interface AuthorizeRequest {
  scope: string;
  state?: string | undefined;
  responseType: string;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: string | undefined;
  nonce?: string | undefined;
  loginHint?: string | undefined;
  locale?: string | undefined;
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Checks what RFC 6749/7636/9700 require once client and redirect URI are known good. */
export function checkAuthorizeRequest(app: Application, req: AuthorizeRequest): string[] {
  if (req.responseType !== 'code') throw new RedirectableError('unsupported_response_type', 'Only response_type=code is supported (no implicit flow)');
  if (!req.codeChallenge) throw new RedirectableError('invalid_request', 'code_challenge is required (PKCE)');
  if (req.codeChallengeMethod !== 'S256') throw new RedirectableError('invalid_request', 'code_challenge_method must be S256');
  if (!CHALLENGE.test(req.codeChallenge)) throw new RedirectableError('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
  const scopes = [...new Set(req.scope.split(' ').filter(Boolean))];
  if (scopes.length === 0) throw new RedirectableError('invalid_scope', 'scope is required');
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new RedirectableError('invalid_scope', `Unknown scopes: ${unknown.join(' ')}`);
  const notAllowed = scopes.filter((s) => !app.allowedScopes.includes(s));
  if (notAllowed.length) throw new RedirectableError('invalid_scope', `This client may not request: ${notAllowed.join(' ')}`);
  return scopes;
}

export async function createAuthorization(db: Db, app: Application, redirectUri: string, req: AuthorizeRequest, scopes: string[], userId: string | undefined, now: Date) {
  return db.authorization.create({
    data: {
      applicationId: app.id,
      userId: userId ?? null,
      redirectUri,
      state: req.state ?? null,
      requestedScopes: scopes,
      grantedScopes: [],
      codeChallenge: req.codeChallenge!,
      nonce: req.nonce ?? null,
      loginHint: req.loginHint ?? null,
      locale: req.locale ?? null,
      expiresAt: new Date(now.getTime() + PENDING_TTL_SECONDS * 1000),
    },
  });
}

/**
 * The authorization as its own user may see it. An unbound authorization is bound to the first
 * signed-in user who opens or decides it; anyone else gets 404, as if it did not exist.
 */
export async function authorizationFor(db: Db, id: string, userId: string) {
  if (!isUuid(id)) throw new NotFoundError('No such authorization', 'authorization_not_found');
  await db.authorization.updateMany({ where: { id, userId: null }, data: { userId } });
  const found = await db.authorization.findUnique({ where: { id }, include: { application: { include: { organization: true } } } });
  if (!found || found.userId !== userId) throw new NotFoundError('No such authorization', 'authorization_not_found');
  return found;
}

export type AuthorizationWithApp = Awaited<ReturnType<typeof authorizationFor>>;

function scopeDetails(ids: string[]) {
  return ids.flatMap((id) => {
    const d = scopeDetail(id);
    return d ? [d] : [];
  });
}

export function contextOf(a: AuthorizationWithApp, secret: string) {
  const app = a.application;
  return {
    authorization_id: a.id,
    client_id: app.clientId,
    user_id: a.userId,
    app_scoped_user_id: appScopedUserId(secret, app.organizationId, a.userId!),
    status: a.status,
    redirect_uri: a.redirectUri,
    ...(a.state !== null ? { state: a.state } : {}),
    requested_scopes: a.requestedScopes,
    ...(a.grantedScopes.length ? { granted_scopes: a.grantedScopes } : {}),
    ...(a.nonce !== null ? { nonce: a.nonce } : {}),
    application: {
      client_id: app.clientId,
      name: app.name,
      organization_id: app.organizationId,
      organization_name: app.organization.name,
      status: app.status,
      redirect_uris: app.redirectUris,
      created_at: app.createdAt.toISOString(),
      updated_at: app.updatedAt.toISOString(),
      ...(app.revokedAt ? { revoked_at: app.revokedAt.toISOString() } : {}),
    },
    scopes: scopeDetails(a.requestedScopes),
    metadata: {
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
      ...(a.approvedAt ? { approved_at: a.approvedAt.toISOString() } : {}),
      ...(a.revokedAt ? { revoked_at: a.revokedAt.toISOString() } : {}),
      ...(a.lastTokenIssuedAt ? { last_token_issued_at: a.lastTokenIssuedAt.toISOString() } : {}),
    },
    policy: { requires_palm_verification: app.requiresPalmVerification, preset_cache_ttl_seconds: app.presetCacheTtlSeconds },
  };
}

export class DecisionError extends HttpError {}

function assertPending(a: AuthorizationWithApp, now: Date): void {
  if (a.status !== 'pending_admin') throw new DecisionError(409, 'invalid_request', `The authorization is already ${a.status}`);
  if (a.expiresAt <= now) throw new DecisionError(409, 'invalid_request', 'The authorization request has expired; start again');
}

const codeKey = (authorizationId: string) => `authz-code:${authorizationId}`;

/**
 * Approves with the chosen subset of the requested scopes (all when none is chosen) plus what
 * they imply. Exactly one decision wins a race: the status moves from pending_admin only once.
 */
export async function approve(db: Db, cache: Cache, a: AuthorizationWithApp, chosen: string[] | undefined, user: { palmVerified: boolean; authTime: Date }, now: Date) {
  assertPending(a, now);
  if (a.application.requiresPalmVerification && !user.palmVerified) {
    throw new DecisionError(403, 'palm_verification_required', `${a.application.name} requires palm verification, which this account has not completed`);
  }
  const selected = chosen ?? a.requestedScopes;
  const notRequested = selected.filter((s) => !a.requestedScopes.includes(s));
  if (notRequested.length) throw new DecisionError(400, 'invalid_scope', `Not requested: ${notRequested.join(' ')}`);
  if (selected.length === 0) throw new DecisionError(400, 'invalid_scope', 'Grant at least one scope, or deny');
  const granted = withImplied(selected).filter((s) => a.application.allowedScopes.includes(s));
  const code = `svccode_${randomBase62(43)}`;
  const codeExpiresAt = new Date(now.getTime() + CODE_TTL_SECONDS * 1000);
  const won = await db.$transaction(async (tx) => {
    const moved = await tx.authorization.updateMany({
      where: { id: a.id, status: 'pending_admin' },
      data: { status: 'approved', grantedScopes: granted, approvedAt: now, authTime: user.authTime },
    });
    if (moved.count !== 1) return false;
    await tx.authorizationCode.create({ data: { authorizationId: a.id, codeHash: sha256Hex(code), expiresAt: codeExpiresAt } });
    return true;
  });
  if (!won) throw new DecisionError(409, 'invalid_request', 'The authorization was decided or revoked meanwhile');
  // Kept for /oauth/authorize/result only while the code is valid; the database holds its hash.
  await cache.set(codeKey(a.id), code, CODE_TTL_SECONDS).catch(() => undefined);
  return { code, codeExpiresAt, granted };
}

export async function deny(db: Db, a: AuthorizationWithApp, now: Date) {
  assertPending(a, now);
  const moved = await db.authorization.updateMany({ where: { id: a.id, status: 'pending_admin' }, data: { status: 'denied', deniedAt: now } });
  if (moved.count !== 1) throw new DecisionError(409, 'invalid_request', 'The authorization was decided meanwhile');
}

export async function pendingCode(cache: Cache, authorizationId: string): Promise<string | undefined> {
  return (await cache.get(codeKey(authorizationId)).catch(() => null)) ?? undefined;
}

export async function forgetCode(cache: Cache, authorizationId: string): Promise<void> {
  await cache.delete(codeKey(authorizationId)).catch(() => undefined);
}

/** `redirect_uri?…` with the response parameters and `iss` (RFC 9207), keeping its own query. */
export function redirectWith(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
