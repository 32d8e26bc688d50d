/**
 * Dynamic client registration: RFC 7591 at POST /oauth/register, for holders of an initial access
 * token an organization's developer made in the console (so registration is never open to
 * strangers), and RFC 7592 client management at the registration_client_uri, for the holder of
 * the client's registration access token. Metadata is checked as the console checks it.
 */
import { authMethodOf, type RegisteredClient, registerClient, registrationResponse } from '@svc/admin';
import { Prisma } from '@svc/db';
import { ValidationError } from '@svc/http';
import { type ClientMetadata, type MetadataProblem, parseClientMetadata, SCOPES, storedSignInPolicy } from '@svc/schemas';
import type { Application } from '../clients/application.js';
import { adminContext, asRequest } from '../developer/admin-calls.js';
import { assertRoomForApplication, endApplication } from '../applications/applications.js';
import type { DeveloperDeps } from '../developer/deps.js';
import type { Registrant } from './registration-tokens.js';

/** RFC 7591 §3.2.2: the first problem's code, every problem in `details`. */
export function checkedMetadata(body: unknown): ClientMetadata {
  const parsed = parseClientMetadata(body, SCOPES);
  if (parsed.ok) return parsed.value;
  const problems: MetadataProblem[] = parsed.problems;
  const details = problems.map((p) => ({ field: p.field === 'body' ? 'body' : `body.${p.field}`, message: p.message }));
  const code = problems.some((p) => p.code === 'invalid_redirect_uri') ? 'invalid_redirect_uri' : 'invalid_client_metadata';
  throw new ValidationError(details, details.map((d) => `${d.field}: ${d.message}`).join('; '), code);
}

/** RFC 7591 §3.2: a client of the organization whose initial access token the request presents. */
export async function register(deps: DeveloperDeps, holder: Registrant, body: unknown) {
  const metadata = checkedMetadata(body);
  await assertRoomForApplication(deps, holder.organizationId);
  // The organization's developers list its applications from the primary for a while (ReplicaReads).
  await deps.reads.wrote(holder.organizationId);
  return asRequest(() =>
    registerClient(adminContext(deps), { org: holder.organizationId, metadata, createdByUserId: holder.createdByUserId, issuer: deps.config.issuer }),
  );
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
  await deps.reads.wrote(app.organizationId);
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
      // Replaced whole, as every registered member is: what is not sent is cleared.
      ...storedSignInPolicy({
        default_acr_values: metadata.default_acr_values ?? [],
        default_max_age: metadata.default_max_age ?? null,
        sensitive_data_acr: metadata.sensitive_data_acr ?? null,
        sensitive_data_max_age: metadata.sensitive_data_max_age ?? null,
      }),
      ...(metadata.jwks ? { jwks: metadata.jwks as object, jwksUri: null } : {}),
      ...(metadata.jwks_uri ? { jwksUri: metadata.jwks_uri, jwks: Prisma.DbNull } : {}),
    },
  });
  deps.tokens.grants.announce('c', app.id);
  return currentRegistration(deps, updated);
}

/** RFC 7592 §2.3: the client is revoked (its tokens refused, its id never reused), its registration token void. */
export async function deleteRegistration(deps: DeveloperDeps, app: Application) {
  await deps.reads.wrote(app.organizationId);
  await endApplication(deps, app.id, { registrationTokenHash: null });
}
