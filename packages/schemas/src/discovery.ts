import { z } from 'zod';
import { PRESET_TYPES } from './presets.js';

const strings = z.array(z.string());

/** production, or the sandbox: its own issuer, keys, clients and test users, the same paths. */
const ZEnvironment = z.enum(['production', 'sandbox']);

export const ZOpenIdConfiguration = z.object({
  environment: ZEnvironment,
  registration_endpoint: z.string().optional(),
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  jwks_uri: z.string(),
  revocation_endpoint: z.string(),
  introspection_endpoint: z.string().optional(),
  pushed_authorization_request_endpoint: z.string().optional(),
  end_session_endpoint: z.string().optional(),
  backchannel_logout_supported: z.boolean().optional(),
  backchannel_logout_session_supported: z.boolean().optional(),
  frontchannel_logout_supported: z.boolean().optional(),
  require_pushed_authorization_requests: z.boolean().optional(),
  request_parameter_supported: z.boolean().optional(),
  request_uri_parameter_supported: z.boolean().optional(),
  request_object_signing_alg_values_supported: strings.optional(),
  response_types_supported: strings,
  response_modes_supported: strings.optional(),
  grant_types_supported: strings,
  scopes_supported: strings,
  code_challenge_methods_supported: strings,
  token_endpoint_auth_methods_supported: strings,
  revocation_endpoint_auth_methods_supported: strings.optional(),
  introspection_endpoint_auth_methods_supported: strings.optional(),
  introspection_endpoint_auth_signing_alg_values_supported: strings.optional(),
  introspection_signing_alg_values_supported: strings.optional(),
  subject_types_supported: strings,
  claim_types_supported: strings,
  claims_supported: strings,
  acr_values_supported: strings.optional(),
  prompt_values_supported: strings.optional(),
  claims_parameter_supported: z.boolean().optional(),
  id_token_signing_alg_values_supported: strings,
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  token_endpoint_auth_signing_alg_values_supported: strings.optional(),
  dpop_signing_alg_values_supported: strings.optional(),
  tls_client_certificate_bound_access_tokens: z.boolean().optional(),
  authorization_details_types_supported: strings.optional(),
});

export const ZServiceConfiguration = z.object({
  issuer: z.string(),
  environment: ZEnvironment,
  /** The base URLs of both environments, where this deployment knows them. */
  production_base_url: z.string().optional(),
  sandbox_base_url: z.string().optional(),
  registration_endpoint: z.string().optional(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revoke_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  jwks_uri: z.string(),
  presets_endpoint: z.string(),
  presets_batch_endpoint: z.string(),
  credentials_endpoint: z.string(),
  authorizations_endpoint: z.string(),
  svc_configuration_endpoint: z.string(),
  scopes_supported: strings,
  grant_types_supported: strings,
  code_challenge_methods_supported: strings,
  response_types_supported: strings,
  token_endpoint_auth_methods_supported: strings,
  subject_types_supported: strings,
  claim_types_supported: strings,
  claims_supported: strings,
  id_token_signing_alg_values_supported: strings,
  dpop_signing_alg_values_supported: strings.optional(),
  token_endpoint_auth_signing_alg_values_supported: strings.optional(),
  /** The `aud` of every access token (RFC 9068): this service's data API. */
  access_token_audience: z.string().optional(),
  scopes_catalog: z.array(
    z.object({
      id: z.string(),
      display_name: z.string(),
      description: z.string(),
      category: z.string(),
      implied_scopes: strings.optional(),
      is_default: z.boolean().optional(),
    }),
  ),
  presets_available: z.array(
    z.object({ name: z.string(), scope: z.string(), type: z.enum([...PRESET_TYPES, 'bundled']), description: z.string(), consent_text: z.string() }),
  ),
  rate_limit_default: z.number(),
  rate_limit_unit: z.string(),
  /** Each end user's share of rate_limit_default per rate_limit_unit, whatever number of grants (authorizations) of the client they hold. */
  rate_limit_per_grant: z.number().optional(),
  /** Each source address's share (an IPv4 address, an IPv6 /64) of a public client's rate_limit_default per rate_limit_unit, whatever number of users it signs in. */
  rate_limit_per_source: z.number().optional(),
});

/** RFC 9728 protected resource metadata of the data API. */
export const ZProtectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: strings,
  scopes_supported: strings,
  bearer_methods_supported: strings,
  dpop_signing_alg_values_supported: strings,
});

export const ZJwks = z.object({
  keys: z.array(z.object({ kty: z.string(), kid: z.string(), alg: z.string(), n: z.string(), e: z.string(), use: z.literal('sig') })),
});

export type OpenIdConfiguration = z.infer<typeof ZOpenIdConfiguration>;
export type ServiceConfiguration = z.infer<typeof ZServiceConfiguration>;
