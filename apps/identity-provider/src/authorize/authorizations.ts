import type { Db } from '@svc/db';
import { authorizationApproved, recordWebhookEvent, WEBHOOK_LOG_DAYS } from '../webhook-outbox/events.js';
import type { Cache } from '@svc/kv';
import { type CredentialAuthorizationDetail, isUuid, SCOPES, type Scope, scopeDetail, type SignInAssurance, withImplied } from '@svc/schemas';
import { deriveKey, randomBase62, seal, sha256Hex, unseal } from '@svc/secrets';
import type { EnvironmentGuard } from '../environment/environment.js';
import { authorizationConflict, authorizationNotFound, decisionScope, palmVerificationRequired, RedirectableError, signInRequired } from '../errors.js';
import type { Application } from '../clients/application.js';
import { judgeSignIn, type SentRequirements, type SignInRequirements } from './sign-in-requirements.js';
import { FAPI_CODE_TTL_SECONDS, isFapi } from '../clients/fapi.js';
import { appScopedUserId } from '../keys/keyed.js';
import { storedDetails } from './authorization-details.js';

export const PENDING_TTL_SECONDS = 600;
export const CODE_TTL_SECONDS = 300;

export type AuthorizationRow = NonNullable<Awaited<ReturnType<Db['authorization']['findUnique']>>>;

export interface AuthorizeRequest {
  scope: string;
  state?: string | undefined;
  responseType: string;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: string | undefined;
  nonce?: string | undefined;
  loginHint?: string | undefined;
  locale?: string | undefined;
  /** RFC 9396, as sent (checked by credentialDetails): with it, `scope` may be empty. */
  authorizationDetails?: string | unknown[] | undefined;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is bound to. */
  dpopJkt?: string | undefined;
  /** What it asks of the person's sign-in, as sent (checked by signInRequirementsOf). */
  signIn?: SentRequirements | undefined;
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/** Checks what RFC 6749/7636/9700 require once client and redirect URI are known good. */
/** `asksCredentials`: the request names credentials by their scopes, so it may hold no other scope. */
export function checkAuthorizeRequest(app: Application, req: AuthorizeRequest, asksCredentials = false): string[] {
  if (req.responseType !== 'code') throw new RedirectableError('unsupported_response_type', 'Only response_type=code is supported (no implicit flow)');
  if (!req.codeChallenge) throw new RedirectableError('invalid_request', 'code_challenge is required (PKCE)');
  if (req.codeChallengeMethod !== 'S256') throw new RedirectableError('invalid_request', 'code_challenge_method must be S256');
  if (!CHALLENGE.test(req.codeChallenge)) throw new RedirectableError('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
  if (req.dpopJkt !== undefined && !THUMBPRINT.test(req.dpopJkt))
    throw new RedirectableError('invalid_request', 'dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters, RFC 9449 §10)');
  const scopes = [...new Set(req.scope.split(' ').filter(Boolean))];
  if (scopes.length === 0 && req.authorizationDetails === undefined && !asksCredentials) throw new RedirectableError('invalid_scope', 'scope is required');
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new RedirectableError('invalid_scope', `Unknown scopes: ${unknown.join(' ')}`);
  const notAllowed = scopes.filter((s) => !app.allowedScopes.includes(s));
  if (notAllowed.length) throw new RedirectableError('invalid_scope', `This client may not request: ${notAllowed.join(' ')}`);
  return scopes;
}

/** A pending authorization as /oauth/authorize records it, its scopes already checked. */
export interface NewAuthorization {
  app: Application;
  redirectUri: string;
  request: AuthorizeRequest;
  scopes: string[];
  /** The credentials asked for a wallet (credentialDetails), if any. */
  details?: CredentialAuthorizationDetail[] | undefined;
  /** The signed-in user, when there is one: the authorization is bound to them at once. */
  userId: string | undefined;
  /** What the request asks of the sign-in, checked; none: nothing beyond a session. */
  requirements?: SignInRequirements | undefined;
  now: Date;
}

export async function createAuthorization(db: Db, { app, redirectUri, request: req, scopes, details, userId, requirements, now }: NewAuthorization) {
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
      dpopJkt: req.dpopJkt ?? null,
      ...(details?.length ? { authorizationDetails: details } : {}),
      ...(requirements
        ? { prompt: requirements.prompt, maxAge: requirements.maxAge, acrValues: requirements.acrValues, acrEssential: requirements.acrEssential }
        : {}),
      expiresAt: new Date(now.getTime() + PENDING_TTL_SECONDS * 1000),
      // On the service's clock, as sessions' sign-in times are: prompt=login and max_age compare the two.
      createdAt: now,
    },
  });
}

/**
 * The authorization as its own user may see it. An unbound authorization is bound to the first
 * signed-in user who opens or decides it; anyone else gets 404, as if it did not exist.
 */
export async function authorizationFor(db: Db, id: string, userId: string) {
  if (!isUuid(id)) throw authorizationNotFound();
  await db.authorization.updateMany({ where: { id, userId: null }, data: { userId } });
  const found = await db.authorization.findUnique({ where: { id }, include: { application: { include: { organization: true } } } });
  if (!found || found.userId !== userId) throw authorizationNotFound();
  return found;
}

/**
 * "Not you?": a pending authorization bound to `userId` goes back to being unbound, so the account
 * that signs in next answers it (authorizationFor binds it to them) instead of being told it is
 * another account's.
 */
export async function releaseAuthorization(db: Db, id: string, userId: string): Promise<void> {
  await db.authorization.updateMany({ where: { id, userId, status: 'pending_admin' }, data: { userId: null } });
}

/** A pending authorization that can still be decided, with its client and organization; else null. */
export async function pendingAuthorization(db: Db, id: string, now: Date) {
  const a = isUuid(id) ? await db.authorization.findUnique({ where: { id }, include: { application: { include: { organization: true } } } }) : null;
  return a && a.status === 'pending_admin' && a.expiresAt > now ? a : null;
}

export type AuthorizationWithApp = Awaited<ReturnType<typeof authorizationFor>>;

function scopeDetails(ids: string[]) {
  return ids.flatMap((id) => {
    const d = scopeDetail(id);
    return d ? [d] : [];
  });
}

/**
 * What the account holder is asked to grant: the requested scopes and every scope they imply that
 * the client may hold, each shown and each declinable. Nothing outside this list is ever granted.
 */
export function offeredScopes(a: { requestedScopes: string[]; application: { allowedScopes: string[] } }): Scope[] {
  // In the order asked, each implied scope right after the first scope that implies it.
  const offered = new Set(a.requestedScopes.flatMap((s) => [s, ...withImplied([s]).filter((x) => x !== s)]));
  return [...offered].filter((s) => a.application.allowedScopes.includes(s)) as Scope[];
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
    scopes: scopeDetails(offeredScopes(a)),
    ...(storedDetails(a.authorizationDetails).length ? { authorization_details: storedDetails(a.authorizationDetails) } : {}),
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

function assertPending(a: AuthorizationWithApp, now: Date): void {
  if (a.status !== 'pending_admin') throw authorizationConflict(`The authorization is already ${a.status}`);
  if (a.expiresAt <= now) throw authorizationConflict('The authorization request has expired; start again');
}

const codeKey = (authorizationId: string) => `authz-code:${authorizationId}`;

/**
 * Approves with exactly the chosen subset of the offered scopes (all of them when none is chosen):
 * the account holder saw each one, implied ones included. Exactly one decision wins a race: the
 * status moves from pending_admin only once.
 */
/** Where authorizations and their codes are kept, and the secret a code is sealed with in the store. */
export interface AuthorizationStores {
  db: Db;
  cache: Cache;
  secret: string;
  environment: EnvironmentGuard;
}

export async function approve(
  { db, cache, secret, environment }: AuthorizationStores,
  {
    authorization: a,
    chosen,
    user,
    now,
  }: {
    authorization: AuthorizationWithApp;
    chosen: string[] | undefined;
    /** `sessionId`: the sign-in session deciding (none for the sandbox's browserless approvals). */
    user: { userId: string; palmVerified: boolean; authTime: Date; sessionId?: string } & Partial<SignInAssurance>;
    now: Date;
  },
) {
  assertPending(a, now);
  // What the request asked of the sign-in holds for the approval itself, however it is posted.
  if (!judgeSignIn(a, a.createdAt, { authTime: user.authTime, acr: user.acr ?? 'pwd' }, now).ok) throw signInRequired();
  if (a.application.requiresPalmVerification && !user.palmVerified) {
    throw palmVerificationRequired(a.application.name);
  }
  const offered = offeredScopes(a);
  const selected = chosen ?? offered;
  const notOffered = selected.filter((s) => !(offered as string[]).includes(s));
  if (notOffered.length) throw decisionScope(`Not requested: ${notOffered.join(' ')}`);
  // The credentials asked for a wallet are granted with the approval, as shown; scopes beside them may all be declined.
  if (selected.length === 0 && storedDetails(a.authorizationDetails).length === 0) throw decisionScope('Grant at least one scope, or deny');
  const granted = SCOPES.filter((s) => selected.includes(s));
  const code = environment.mark(`svccode_${randomBase62(43)}`);
  const codeTtl = isFapi(a.application) ? FAPI_CODE_TTL_SECONDS : CODE_TTL_SECONDS;
  const codeExpiresAt = new Date(now.getTime() + codeTtl * 1000);
  const won = await db.$transaction(async (tx) => {
    const moved = await tx.authorization.updateMany({
      where: { id: a.id, status: 'pending_admin' },
      data: {
        status: 'approved',
        grantedScopes: granted,
        approvedAt: now,
        authTime: user.authTime,
        sessionId: user.sessionId ?? null,
        acr: user.acr ?? null,
        amr: user.amr ?? [],
      },
    });
    if (moved.count !== 1) return false;
    await tx.authorizationCode.create({ data: { authorizationId: a.id, codeHash: sha256Hex(code), expiresAt: codeExpiresAt } });
    await recordWebhookEvent(tx, authorizationApproved(secret, { id: a.id, userId: user.userId, application: a.application }, granted, now));
    return true;
  });
  if (!won) throw authorizationConflict('The authorization was decided or revoked meanwhile');
  // Kept for the owning client's /oauth/authorize/result while the code is valid, sealed with a key
  // derived from IDP_SECRET and bound to this authorization; the database holds only its hash.
  await cache.set(codeKey(a.id), seal(codeSealKey(secret), code, a.id), codeTtl).catch(() => undefined);
  return { code, codeExpiresAt, granted };
}

/**
 * The JSON answer to an approval (ZApproveResponse): the code and where the browser would go.
 * Shared by the consent decision and the sandbox's browserless approval.
 */
export function approvalAnswer(
  a: AuthorizationWithApp,
  {
    code,
    codeExpiresAt,
    granted,
    userId,
    secret,
    issuer,
  }: { code: string; codeExpiresAt: Date; granted: string[]; userId: string; secret: string; issuer: string },
) {
  return {
    authorization_id: a.id,
    status: 'approved' as const,
    code,
    code_expires_at: codeExpiresAt.toISOString(),
    scopes: granted,
    granted_scopes: granted,
    app_scoped_user_id: appScopedUserId(secret, a.application.organizationId, userId),
    organization_id: a.application.organizationId,
    ...(a.state !== null ? { state: a.state } : {}),
    redirect_uri: a.redirectUri,
    client_id: a.application.clientId,
    redirect_to: redirectWith(a.redirectUri, issuer, { code, state: a.state ?? undefined }),
  };
}

export async function deny(db: Db, a: AuthorizationWithApp, now: Date) {
  assertPending(a, now);
  const moved = await db.authorization.updateMany({ where: { id: a.id, status: 'pending_admin' }, data: { status: 'denied', deniedAt: now } });
  if (moved.count !== 1) throw authorizationConflict('The authorization was decided meanwhile');
}

const codeSealKey = (secret: string) => deriveKey(secret, 'authorization-code');

export async function pendingCode(cache: Cache, secret: string, authorizationId: string): Promise<string | undefined> {
  const sealed = await cache.get(codeKey(authorizationId)).catch(() => null);
  if (!sealed) return undefined;
  try {
    return unseal(codeSealKey(secret), sealed, authorizationId);
  } catch {
    return undefined;
  }
}

export async function forgetCode(cache: Cache, authorizationId: string): Promise<void> {
  await cache.delete(codeKey(authorizationId)).catch(() => undefined);
}

/**
 * The outcome of an authorization for whoever holds its id: status, state and where it leads. The
 * code (and the redirect that carries it) only for `client`, the authenticated confidential client
 * that owns it; another client is told nothing (404).
 */
export async function authorizationResult(
  { db, cache, secret }: AuthorizationStores,
  { issuer, id, client }: { issuer: string; id: string; client: Application | undefined },
) {
  const a = isUuid(id) ? await db.authorization.findUnique({ where: { id } }) : null;
  if (!a || (client && a.applicationId !== client.id)) throw authorizationNotFound();
  const state = a.state ?? undefined;
  const code = a.status === 'approved' && client && !client.isPublic ? await pendingCode(cache, secret, a.id) : undefined;
  const redirectTo = code
    ? redirectWith(a.redirectUri, issuer, { code, state })
    : a.status === 'denied'
      ? redirectWith(a.redirectUri, issuer, { error: 'access_denied', state })
      : null;
  return { authorization_id: a.id, status: a.status, redirect_uri: a.redirectUri, state: a.state, ...(code ? { code } : {}), redirect_to: redirectTo };
}

/**
 * Deletes pending authorizations that expired more than an hour ago (nobody can decide them any
 * more; the hour lets a late /result poll still learn it expired), revoked-token records past
 * their token's expiry, API key usage counts older than a week, and old webhook events. Returns
 * how many authorizations went.
 */
export async function purgeExpired(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 3600_000);
  const [gone] = await db.$transaction([
    db.authorization.deleteMany({ where: { status: 'pending_admin', expiresAt: { lt: cutoff } } }),
    db.revokedAccessToken.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.apiKeyUsage.deleteMany({ where: { hour: { lt: new Date(now.getTime() - 7 * 86_400_000) } } }),
    // Webhook events no endpoint asked for, after an hour; any other with its delivery log after 30 days.
    db.webhookEvent.deleteMany({ where: { occurredAt: { lt: cutoff }, deliveries: { none: {} } } }),
    db.webhookEvent.deleteMany({ where: { occurredAt: { lt: new Date(now.getTime() - WEBHOOK_LOG_DAYS * 86_400_000) } } }),
  ]);
  return gone.count;
}

/** `redirect_uri?…` with the response parameters and `iss` (RFC 9207), keeping its own query. */
export function redirectWith(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
