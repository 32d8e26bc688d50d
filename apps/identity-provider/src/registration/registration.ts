/**
 * Dynamic client registration: RFC 7591 at POST /oauth/register, for holders of an initial access
 * token an organization's developer made in the console (so registration is never open to
 * strangers), and RFC 7592 client management at the registration_client_uri, for the holder of
 * the client's registration access token. Metadata is checked as the console checks it.
 */
import { authMethodOf, type RegisteredClient, registerClient, registrationResponse } from '@svc/admin';
import { Prisma } from '@svc/db';
import { ValidationError } from '@svc/http';
import { type ClientMetadata, type MetadataProblem, parseClientMetadata, SCOPES } from '@svc/schemas';
import { sha256Hex } from '@svc/secrets';
import type { Application } from '../clients/application.js';
import { adminContext, asRequest } from '../developer/admin-calls.js';
import { assertRoomForApplication, endApplication } from '../applications/applications.js';
import type { DeveloperDeps } from '../developer/deps.js';
import { developerTokenRejected } from '../errors.js';

const INITIAL_ACCESS_TOKEN = /^(sbx_)?svciat_[0-9A-Za-z]{43}$/;
const REGISTRATION_ACCESS_TOKEN = /^(sbx_)?svcrat_[0-9A-Za-z]{43}$/;

/** RFC 7591 §3.2.2: the first problem's code, every problem in `details`. */
export function checkedMetadata(body: unknown): ClientMetadata {
  const parsed = parseClientMetadata(body, SCOPES);
  if (parsed.ok) return parsed.value;
  const problems: MetadataProblem[] = parsed.problems;
  const details = problems.map((p) => ({ field: p.field === 'body' ? 'body' : `body.${p.field}`, message: p.message }));
  const code = problems.some((p) => p.code === 'invalid_redirect_uri') ? 'invalid_redirect_uri' : 'invalid_client_metadata';
  throw new ValidationError(details, details.map((d) => `${d.field}: ${d.message}`).join('; '), code);
}

/** The organization an initial access token registers for. */
export async function initialAccessTokenHolder(deps: DeveloperDeps, token: string | undefined) {
  const row = token && INITIAL_ACCESS_TOKEN.test(token) ? await deps.db.initialAccessToken.findUnique({ where: { tokenHash: sha256Hex(token) } }) : null;
  if (!row || row.revokedAt || row.expiresAt <= deps.clock.now()) {
    throw developerTokenRejected(
      deps.environment.elsewhere('This initial access token', token) ??
        'An initial access token (Bearer svciat_…) from the developer console is required, and must not have expired',
    );
  }
  return { organizationId: row.organizationId, createdByUserId: row.createdByUserId ?? undefined };
}

export async function register(deps: DeveloperDeps, token: string | undefined, body: unknown) {
  const holder = await initialAccessTokenHolder(deps, token);
  const metadata = checkedMetadata(body);
  await assertRoomForApplication(deps, holder.organizationId);
  return asRequest(() =>
    registerClient(adminContext(deps), { org: holder.organizationId, metadata, createdByUserId: holder.createdByUserId, issuer: deps.config.issuer }),
  );
}

/** The active client a registration access token manages; the same refusal for any mismatch. */
export async function managedClient(deps: DeveloperDeps, clientId: string, token: string | undefined): Promise<Application> {
  const app =
    token && REGISTRATION_ACCESS_TOKEN.test(token) ? await deps.db.application.findUnique({ where: { registrationTokenHash: sha256Hex(token) } }) : null;
  if (!app || app.clientId !== clientId || app.status !== 'active') {
    throw developerTokenRejected(
      deps.environment.elsewhere('This registration access token', token) ?? 'The registration access token is unknown, or not this client’s',
    );
  }
  return app;
}

export const currentRegistration = (deps: DeveloperDeps, app: RegisteredClient) => registrationResponse(app, { issuer: deps.config.issuer });

/**
 * RFC 7592 §2.2: the metadata sent replaces the registered metadata. How the client authenticates
 * cannot change (a secret client cannot become a public or a key-holding one): register another.
 */
export async function replaceRegistration(deps: DeveloperDeps, app: Application, body: unknown) {
  const sent = body as { client_id?: unknown; client_secret?: unknown } | null;
  if (sent?.client_id !== app.clientId)
    throw new ValidationError([{ field: 'body.client_id', message: 'must be the client_id of this registration' }], undefined, 'invalid_client_metadata');
  const metadata = checkedMetadata(body);
  const current = authMethodOf(app);
  if (metadata.token_endpoint_auth_method !== current) {
    throw new ValidationError(
      [{ field: 'body.token_endpoint_auth_method', message: `cannot change from ${current}: register a new client` }],
      undefined,
      'invalid_client_metadata',
    );
  }
  const updated = await deps.db.application.update({
    where: { id: app.id },
    data: {
      name: metadata.client_name,
      redirectUris: metadata.redirect_uris,
      allowedScopes: metadata.scope.split(' '),
      requiresDpop: metadata.dpop_bound_access_tokens,
      requiresPushedAuthorization: metadata.require_pushed_authorization_requests,
      postLogoutRedirectUris: metadata.post_logout_redirect_uris,
      backchannelLogoutUri: metadata.backchannel_logout_uri ?? null,
      idTokenSignedResponseAlg: metadata.id_token_signed_response_alg,
      introspectionSignedResponseAlg: metadata.introspection_signed_response_alg,
      fapiProfile: metadata.fapi_profile ?? null,
      ...(metadata.jwks ? { jwks: metadata.jwks as object, jwksUri: null } : {}),
      ...(metadata.jwks_uri ? { jwksUri: metadata.jwks_uri, jwks: Prisma.DbNull } : {}),
    },
  });
  deps.tokens.grants.announce('c', app.id);
  return currentRegistration(deps, updated);
}

/** RFC 7592 §2.3: the client is revoked (its tokens refused, its id never reused), its registration token void. */
export async function deleteRegistration(deps: DeveloperDeps, app: Application) {
  await endApplication(deps, app.id, { registrationTokenHash: null });
}
