/**
 * An organization's applications (OAuth clients), as its developers manage them in the console and
 * through /v2/developer/applications: registered with the same checks as the admin CLI and RFC 7591
 * registration, a client secret shown once and rotated at will, revoked rather than deleted (a
 * revoked client's tokens are refused at once, and its id is never reused).
 */
import { authMethodOf, createClient } from '@svc/admin';
import { walletApprovalsOfApplicationRevoked } from '@svc/db';
import { type ApplicationView, signInPolicyView, storedSignInPolicy } from '@svc/schemas';
import { generateClientSecret } from '@svc/secrets';
import type { z } from 'zod';
import type { ZCreateApplicationRequest, ZUpdateApplicationRequest } from '@svc/schemas';
import type { Application } from '../clients/application.js';
import { applicationNotFound, conflict } from '../errors.js';
import { adminContext, asRequest } from '../developer/admin-calls.js';
import type { Developer } from '../developer/developer-auth.js';
import type { DeveloperDeps } from '../developer/deps.js';

type Created = z.output<typeof ZCreateApplicationRequest>;
type Update = z.output<typeof ZUpdateApplicationRequest>;

export function applicationView(app: Application): ApplicationView {
  return {
    client_id: app.clientId,
    name: app.name,
    type: app.isPublic ? 'public' : 'confidential',
    token_endpoint_auth_method: authMethodOf(app),
    redirect_uris: app.redirectUris,
    scopes: app.allowedScopes,
    require_dpop: app.requiresDpop,
    requires_palm_verification: app.requiresPalmVerification,
    preset_cache_ttl_seconds: app.presetCacheTtlSeconds,
    access_token_ttl_seconds: app.accessTokenTtlSeconds,
    ...(app.fapiProfile === 'fapi2' ? { fapi_profile: 'fapi2' as const } : {}),
    ...signInPolicyView(app),
    status: app.status,
    created_at: app.createdAt.toISOString(),
  };
}

/** Active applications an organization may have: far more than any integrator needs, a bound on what it can store. */
const ACTIVE_APPLICATIONS = 100;

/** 409 when the organization may register no more (the console, the API and RFC 7591 alike). */
export async function assertRoomForApplication(deps: Pick<DeveloperDeps, 'db'>, organizationId: string): Promise<void> {
  if ((await deps.db.application.count({ where: { organizationId, status: 'active' } })) >= ACTIVE_APPLICATIONS)
    throw conflict('too_many_applications', `An organization has at most ${ACTIVE_APPLICATIONS} active applications: revoke some first`);
}

export async function registerApplication(deps: DeveloperDeps, developer: Developer, body: Created) {
  await assertRoomForApplication(deps, developer.organizationId);
  const method = body.token_endpoint_auth_method ?? (body.type === 'public' ? 'none' : 'client_secret_basic');
  const created = await asRequest(() =>
    createClient(adminContext(deps), {
      org: developer.organizationId,
      name: body.name,
      redirectUris: body.redirect_uris,
      scopes: body.scopes.join(' '),
      public: body.type === 'public',
      requiresPalmVerification: body.requires_palm_verification,
      requireDpop: body.require_dpop,
      presetCacheTtl: body.preset_cache_ttl_seconds,
      accessTokenTtl: body.access_token_ttl_seconds,
      jwks: body.jwks ? JSON.stringify(body.jwks) : undefined,
      tokenEndpointAuthMethod: method,
      fapiProfile: body.fapi_profile,
      signInPolicy: body,
      createdByUserId: developer.userId,
    }),
  );
  const app = await deps.db.application.findUniqueOrThrow({ where: { clientId: created.client_id } });
  return { ...applicationView(app), client_secret: created.client_secret };
}

export async function listApplications(deps: DeveloperDeps, developer: Developer) {
  // Lag-tolerant: from the read replica unless this organization just wrote (see ReplicaReads).
  const apps = await deps.reads.read(developer.organizationId, (db) =>
    db.application.findMany({ where: { organizationId: developer.organizationId }, orderBy: { createdAt: 'asc' } }),
  );
  return { items: apps.map(applicationView) };
}

/** One of the developer's organization's applications; another organization's is not found. */
export async function applicationOf(deps: DeveloperDeps, developer: Developer, clientId: string): Promise<Application> {
  const app = await deps.db.application.findUnique({ where: { clientId } });
  if (!app || app.organizationId !== developer.organizationId) throw applicationNotFound();
  return app;
}

export async function updateApplication(deps: DeveloperDeps, developer: Developer, clientId: string, body: Update) {
  const app = await applicationOf(deps, developer, clientId);
  if (app.status !== 'active') throw conflict('application_revoked', 'The application is revoked; register a new one');
  if (body.jwks && authMethodOf(app) !== 'private_key_jwt') throw conflict('invalid_request', 'jwks: only a private_key_jwt application has keys');
  const updated = await deps.db.application.update({
    where: { id: app.id },
    data: {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.redirect_uris ? { redirectUris: body.redirect_uris } : {}),
      ...(body.scopes ? { allowedScopes: body.scopes } : {}),
      ...(body.require_dpop !== undefined ? { requiresDpop: body.require_dpop } : {}),
      ...(body.requires_palm_verification !== undefined ? { requiresPalmVerification: body.requires_palm_verification } : {}),
      ...(body.preset_cache_ttl_seconds !== undefined ? { presetCacheTtlSeconds: body.preset_cache_ttl_seconds } : {}),
      ...(body.access_token_ttl_seconds !== undefined ? { accessTokenTtlSeconds: body.access_token_ttl_seconds } : {}),
      ...(body.jwks ? { jwks: body.jwks as object } : {}),
      ...storedSignInPolicy(body),
    },
  });
  deps.tokens.grants.announce('c', app.id);
  return applicationView(updated);
}

/** Revoked, not deleted: its id is never reused, and every token it holds is refused from now on. */
export async function revokeApplication(deps: DeveloperDeps, developer: Developer, clientId: string) {
  const app = await applicationOf(deps, developer, clientId);
  await endApplication(deps, app.id);
  return applicationView(await deps.db.application.findUniqueOrThrow({ where: { id: app.id } }));
}

/**
 * Revokes an application once (`also`: what else its row loses): every replica refuses its tokens
 * from now on, and, if it is a wallet, the credential issuer is told in the same transaction to
 * revoke what it issued on its live approvals (wallet_approval.revoked, reason application_revoked).
 */
export async function endApplication(deps: Pick<DeveloperDeps, 'db' | 'clock' | 'tokens'>, applicationId: string, also: { registrationTokenHash?: null } = {}) {
  const issuerClientId = deps.tokens.credentialIssuerClientId;
  await deps.db.$transaction(async (tx) => {
    const ended = await tx.application.updateMany({
      where: { id: applicationId, status: { not: 'revoked' } },
      data: { status: 'revoked', revokedAt: deps.clock.now(), ...also },
    });
    if (ended.count === 1 && issuerClientId) await walletApprovalsOfApplicationRevoked(tx, { applicationId, issuerClientId });
  });
  deps.tokens.grants.announce('c', applicationId);
}

/**
 * A new client secret, shown once; the old one stops working at once (within the 5 s the client
 * cache keeps it on each replica). Only for applications that authenticate with a secret.
 */
export async function rotateSecret(deps: DeveloperDeps, developer: Developer, clientId: string) {
  const app = await applicationOf(deps, developer, clientId);
  if (app.status !== 'active') throw conflict('application_revoked', 'The application is revoked; register a new one');
  if (!app.clientSecretHash) throw conflict('invalid_request', `This application authenticates with ${authMethodOf(app)}: it has no secret to rotate`);
  const secret = generateClientSecret(deps.environment.name);
  await deps.db.application.update({ where: { id: app.id }, data: { clientSecretHash: secret.hash } });
  return { client_id: app.clientId, client_secret: secret.secret };
}
