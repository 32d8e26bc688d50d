/**
 * RFC 7591 client registration from client metadata, shared by the identity provider's
 * registration endpoint and `admin client:register`: the metadata is checked as the console
 * checks it (parseClientMetadata), the client is made as createClient makes it, and the answer is
 * the RFC 7591 registration response with an RFC 7592 registration access token (`svcrat_…`,
 * shown once, only its hash kept) for reading, changing and deleting it.
 */
import { type ClientMetadata, grantTypesFor, parseClientMetadata, SCOPES, type StoredSignInPolicy, signInPolicyView } from '@svc/schemas';
import { marked, randomBase62, sha256Hex } from '@svc/secrets';
import { createClient } from './clients.js';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';

/** The columns the response is built from. */
export interface RegisteredClient extends StoredSignInPolicy {
  clientId: string;
  name: string;
  isPublic: boolean;
  redirectUris: string[];
  allowedScopes: string[];
  requiresDpop: boolean;
  requiresPushedAuthorization: boolean;
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  idTokenSignedResponseAlg: string | null;
  introspectionSignedResponseAlg: string | null;
  fapiProfile: string | null;
  jwks: unknown;
  jwksUri: string | null;
  tokenEndpointAuthMethod: string | null;
  createdAt: Date;
}

/** How a client authenticates at the token endpoint: as registered, or (clients made before that was kept) as its keys imply. */
export function authMethodOf(
  app: Pick<RegisteredClient, 'isPublic' | 'jwks' | 'jwksUri' | 'tokenEndpointAuthMethod'>,
): ClientMetadata['token_endpoint_auth_method'] {
  if (app.tokenEndpointAuthMethod) return app.tokenEndpointAuthMethod as ClientMetadata['token_endpoint_auth_method'];
  if (app.isPublic) return 'none';
  return app.jwks || app.jwksUri ? 'private_key_jwt' : 'client_secret_basic';
}

/** A new registration access token of this environment and its hash. */
export function newRegistrationToken(ctx: Pick<AdminContext, 'environment'>): { token: string; hash: string } {
  const token = marked(ctx.environment ?? 'production', `svcrat_${randomBase62(43)}`);
  return { token, hash: sha256Hex(token) };
}

/** The client metadata as registered (RFC 7591 §3.2.1), with what only its registration may see. */
export function registrationResponse(
  app: RegisteredClient,
  extra: { clientSecret?: string | null | undefined; registrationToken?: string | undefined; issuer?: string | undefined } = {},
) {
  const method = (app.tokenEndpointAuthMethod ??
    (app.isPublic ? 'none' : app.jwks || app.jwksUri ? 'private_key_jwt' : 'client_secret_basic')) as ClientMetadata['token_endpoint_auth_method'];
  return {
    client_id: app.clientId,
    ...(extra.clientSecret ? { client_secret: extra.clientSecret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(app.createdAt.getTime() / 1000),
    ...(extra.registrationToken ? { registration_access_token: extra.registrationToken } : {}),
    ...(extra.issuer ? { registration_client_uri: `${extra.issuer}/oauth/register/${encodeURIComponent(app.clientId)}` } : {}),
    client_name: app.name,
    redirect_uris: app.redirectUris,
    token_endpoint_auth_method: method,
    grant_types: grantTypesFor(method),
    response_types: ['code'],
    scope: app.allowedScopes.join(' '),
    ...(app.jwks ? { jwks: app.jwks } : {}),
    ...(app.jwksUri ? { jwks_uri: app.jwksUri } : {}),
    dpop_bound_access_tokens: app.requiresDpop,
    require_pushed_authorization_requests: app.requiresPushedAuthorization,
    tls_client_certificate_bound_access_tokens: method === 'self_signed_tls_client_auth',
    post_logout_redirect_uris: app.postLogoutRedirectUris,
    ...(app.backchannelLogoutUri ? { backchannel_logout_uri: app.backchannelLogoutUri } : {}),
    backchannel_logout_session_required: true,
    id_token_signed_response_alg: (app.fapiProfile === 'fapi2' ? 'PS256' : (app.idTokenSignedResponseAlg ?? 'RS256')) as 'RS256' | 'PS256',
    introspection_signed_response_alg: (app.fapiProfile === 'fapi2' ? 'PS256' : (app.introspectionSignedResponseAlg ?? 'RS256')) as 'RS256' | 'PS256',
    ...(app.fapiProfile === 'fapi2' ? { fapi_profile: 'fapi2' as const } : {}),
    ...signInPolicyView(app),
  };
}

/** Checked metadata, or the AdminError the CLI prints (the endpoint maps problems to RFC 7591 errors itself). */
export function checkedMetadata(input: unknown): ClientMetadata {
  const parsed = parseClientMetadata(input, SCOPES);
  if (!parsed.ok) throw new AdminError(`--metadata ${parsed.problems.map((p) => `${p.field} ${p.message}`).join('; ')}`);
  return parsed.value;
}

/** Registers a client of `org` from checked metadata; its secret (confidential) and registration token are in the answer only. */
export async function registerClient(
  ctx: AdminContext,
  input: { org: string; metadata: ClientMetadata; createdByUserId?: string | undefined; issuer?: string | undefined },
) {
  const m = input.metadata;
  const registration = newRegistrationToken(ctx);
  const created = await createClient(ctx, {
    org: input.org,
    name: m.client_name,
    redirectUris: m.redirect_uris,
    scopes: m.scope,
    public: m.token_endpoint_auth_method === 'none',
    requireDpop: m.dpop_bound_access_tokens,
    requirePushedAuthorization: m.require_pushed_authorization_requests,
    postLogoutRedirectUris: m.post_logout_redirect_uris,
    backchannelLogoutUri: m.backchannel_logout_uri,
    idTokenSignedResponseAlg: m.id_token_signed_response_alg,
    introspectionSignedResponseAlg: m.introspection_signed_response_alg,
    fapiProfile: m.fapi_profile,
    signInPolicy: m,
    jwks: m.jwks ? JSON.stringify(m.jwks) : undefined,
    jwksUri: m.jwks_uri,
    tokenEndpointAuthMethod: m.token_endpoint_auth_method,
    createdByUserId: input.createdByUserId,
    registrationTokenHash: registration.hash,
  });
  const app = await ctx.db.application.findUniqueOrThrow({ where: { clientId: created.client_id } });
  return registrationResponse(app, { clientSecret: created.client_secret, registrationToken: registration.token, issuer: input.issuer });
}
