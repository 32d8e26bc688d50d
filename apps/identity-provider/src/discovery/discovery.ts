import { PRESETS } from '@svc/presets';
import type { Environment } from '@svc/secrets';
import type { BaseUrls } from '../environment/environment.js';
import { ACR_VALUES, CLIENT_SCOPES, CREDENTIAL_CONFIGURATION_IDS, GRANT_TYPES, OPENID_CREDENTIAL, SCOPE_CATALOG, SCOPES } from '@svc/schemas';
import { PROMPT_VALUES } from '../authorize/sign-in-requirements.js';
import { ASSERTION_ALGORITHMS } from '../clients/client-assertions.js';
import { DPOP_ALGORITHMS } from '@svc/runtime';

const CLAIMS = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'acr',
  'amr',
  'nonce',
  'sid',
  'authorization_id',
  'email',
  'email_verified',
  'wallet_address',
  'service_id',
];

/**
 * The standard OpenID Provider metadata (RFC 8414 / OpenID Connect Discovery), plus which
 * environment this is (production or sandbox), so a client can check it talks to the one it means.
 */
export function openidConfiguration(issuer: string, environment: Environment, options: { mtls?: boolean; credentialIssuer?: boolean } = {}) {
  // RFC 8705, when a TLS-terminating proxy passes client certificates (MTLS_CLIENT_CERT_HEADER).
  const mtls = options.mtls ? (['self_signed_tls_client_auth'] as const) : [];
  const authenticated = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', ...mtls];
  return {
    issuer,
    environment,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/v2/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    // OpenID Connect RP-Initiated and Back-Channel Logout 1.0 (every id_token and logout token carries sid).
    end_session_endpoint: `${issuer}/oauth/logout`,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
    // RFC 9126: every client may push its requests; those registered so must.
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    require_pushed_authorization_requests: false,
    // RFC 9101: signed request objects by value (`request`) and at PAR; never fetched from a URL.
    request_parameter_supported: true,
    request_uri_parameter_supported: false,
    request_object_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    // RFC 7591: with an initial access token from the developer console.
    registration_endpoint: `${issuer}/oauth/register`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    // The users' scopes, then what a client may hold for itself (client_credentials).
    // With a credential issuer, each of its configurations' scopes too (OpenID4VCI 1.0 §5.1.2).
    scopes_supported: [...SCOPES, ...CLIENT_SCOPES, ...(options.credentialIssuer ? CREDENTIAL_CONFIGURATION_IDS : [])],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...authenticated, 'none'],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: [...authenticated, 'none'],
    // Introspection is for authenticated clients only (RFC 7662 §2.1).
    introspection_endpoint_auth_methods_supported: authenticated,
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    introspection_signing_alg_values_supported: ['RS256', 'PS256'],
    subject_types_supported: ['pairwise'],
    claim_types_supported: ['normal'],
    claims_supported: CLAIMS,
    // Weakest first: a password, a passkey, a passkey on attested hardware (docs/identity-provider.md, "Passkeys and step-up").
    acr_values_supported: [...ACR_VALUES],
    prompt_values_supported: [...PROMPT_VALUES],
    // Only an `acr` member of the claims request is acted on; the others are answered as the scopes decide.
    claims_parameter_supported: true,
    // RS256 by default; PS256 for a client that registers it, and for every FAPI 2.0 client.
    id_token_signing_alg_values_supported: ['RS256', 'PS256'],
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
    ...(options.mtls ? { tls_client_certificate_bound_access_tokens: true } : {}),
    // RFC 9396: credentials for wallets (OpenID4VCI), when a credential issuer is configured.
    ...(options.credentialIssuer ? { authorization_details_types_supported: [OPENID_CREDENTIAL] } : {}),
  };
}

/** RFC 9728: what a client needs to call the data API (/v2), whose identifier is the tokens' `aud`. */
export function protectedResourceMetadata(issuer: string, resource: string) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
  };
}

/** The service's own configuration document: the standard members plus the catalogs and limits. */
export function svcConfiguration(
  issuer: string,
  resource: string,
  rateLimit: { limit: number; unit: string; perGrant: number; perSource: number },
  site: { environment: Environment; baseUrls: BaseUrls; mtls?: boolean },
) {
  const standard = openidConfiguration(issuer, site.environment, { mtls: site.mtls });
  return {
    issuer,
    environment: site.environment,
    // Both environments' bases, as far as this deployment knows them: the same paths work on each.
    ...(site.baseUrls.production ? { production_base_url: site.baseUrls.production } : {}),
    ...(site.baseUrls.sandbox ? { sandbox_base_url: site.baseUrls.sandbox } : {}),
    authorization_endpoint: standard.authorization_endpoint,
    token_endpoint: standard.token_endpoint,
    revoke_endpoint: standard.revocation_endpoint,
    userinfo_endpoint: standard.userinfo_endpoint,
    jwks_uri: standard.jwks_uri,
    registration_endpoint: standard.registration_endpoint,
    presets_endpoint: `${issuer}/v2/presets`,
    presets_batch_endpoint: `${issuer}/v2/presets/batch`,
    credentials_endpoint: `${issuer}/v2/queries/evaluate`,
    authorizations_endpoint: `${issuer}/v2/authorizations`,
    svc_configuration_endpoint: `${issuer}/.well-known/svc-configuration`,
    scopes_supported: standard.scopes_supported,
    grant_types_supported: standard.grant_types_supported,
    code_challenge_methods_supported: standard.code_challenge_methods_supported,
    response_types_supported: standard.response_types_supported,
    token_endpoint_auth_methods_supported: standard.token_endpoint_auth_methods_supported,
    subject_types_supported: standard.subject_types_supported,
    claim_types_supported: standard.claim_types_supported,
    claims_supported: standard.claims_supported,
    id_token_signing_alg_values_supported: standard.id_token_signing_alg_values_supported,
    dpop_signing_alg_values_supported: standard.dpop_signing_alg_values_supported,
    token_endpoint_auth_signing_alg_values_supported: standard.token_endpoint_auth_signing_alg_values_supported,
    access_token_audience: resource,
    scopes_catalog: SCOPE_CATALOG,
    presets_available: PRESETS.map((p) => ({ name: p.name, scope: p.scope, type: p.type, description: p.description, consent_text: p.consentText })),
    rate_limit_default: rateLimit.limit,
    rate_limit_unit: rateLimit.unit,
    // Each end user's share of rate_limit_default, however many grants they hold.
    rate_limit_per_grant: rateLimit.perGrant,
    // Each source address's share of a public client's rate_limit_default, whatever number of users it signs in.
    rate_limit_per_source: rateLimit.perSource,
  };
}
