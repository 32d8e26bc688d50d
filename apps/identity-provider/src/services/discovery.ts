import { PRESETS } from '@svc/presets';
import { SCOPE_CATALOG, SCOPES } from '@svc/schemas';
import { ASSERTION_ALGORITHMS } from './client-assertions.js';
import { DPOP_ALGORITHMS } from './dpop.js';

const CLAIMS = ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'authorization_id', 'email', 'email_verified', 'wallet_address', 'service_id'];

/** The standard OpenID Provider metadata (RFC 8414 / OpenID Connect Discovery). */
export function openidConfiguration(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/v2/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    scopes_supported: [...SCOPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    subject_types_supported: ['pairwise'],
    claim_types_supported: ['normal'],
    claims_supported: CLAIMS,
    id_token_signing_alg_values_supported: ['RS256'],
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
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
export function svcConfiguration(issuer: string, resource: string, rateLimit: { limit: number; unit: string }) {
  const standard = openidConfiguration(issuer);
  return {
    issuer,
    authorization_endpoint: standard.authorization_endpoint,
    token_endpoint: standard.token_endpoint,
    revoke_endpoint: standard.revocation_endpoint,
    userinfo_endpoint: standard.userinfo_endpoint,
    jwks_uri: standard.jwks_uri,
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
  };
}
