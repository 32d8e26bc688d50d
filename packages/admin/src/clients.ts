import { jwksProblem, redirectUriProblem, SCOPES, type SignInPolicy, storedSignInPolicy, ZSignInPolicy } from '@svc/schemas';
import { generateClientId, generateClientSecret } from '@svc/secrets';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { orgById } from './lookups.js';

export interface CreateClientInput {
  org: string;
  name: string;
  redirectUris: string[];
  scopes: string;
  public?: boolean;
  requiresPalmVerification?: boolean;
  presetCacheTtl?: number | undefined;
  accessTokenTtl?: number | undefined;
  /** RFC 9449: every token of this client must be DPoP-bound. */
  requireDpop?: boolean;
  /** RFC 9126 §6: every authorization request of this client must be pushed (PAR) first. */
  requirePushedAuthorization?: boolean;
  /** RP-Initiated Logout: where its users may return after signing out (exact URIs). */
  postLogoutRedirectUris?: string[] | undefined;
  /** Back-Channel Logout: where it is told that a session ended. */
  backchannelLogoutUri?: string | undefined;
  /** What the server signs this client's id_tokens and introspection answers with (RS256 when absent). */
  idTokenSignedResponseAlg?: 'RS256' | 'PS256' | undefined;
  introspectionSignedResponseAlg?: 'RS256' | 'PS256' | undefined;
  /** "fapi2": the FAPI 2.0 Security Profile as a whole (needs private_key_jwt keys). */
  fapiProfile?: 'fapi2' | undefined;
  /** What it asks of its users' sign-in (default acr values and max_age; step-up for sensitive presets). */
  signInPolicy?: SignInPolicy | undefined;
  /** RFC 7523 private_key_jwt: the client's public keys (a JWK Set as JSON), or where to fetch them. */
  jwks?: string | undefined;
  jwksUri?: string | undefined;
  /** RFC 7591: client_secret_basic (the default for a secret), client_secret_post, private_key_jwt, none (public). */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'self_signed_tls_client_auth' | 'none' | undefined;
  /** Who registered it (the console and API), and the RFC 7592 registration access token's hash. */
  createdByUserId?: string | undefined;
  registrationTokenHash?: string | undefined;
}

/** A JWK Set of public signing keys only: no private members, no symmetric keys. */
function parseJwks(json: string): { keys: Record<string, unknown>[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new AdminError('--jwks must be a JSON JWK Set ({"keys": [...]})');
  }
  const problem = jwksProblem(parsed);
  if (problem) throw new AdminError(`--jwks ${problem}`);
  return parsed as { keys: Record<string, unknown>[] };
}

const known: ReadonlySet<string> = new Set(SCOPES);

function assertTtl(value: number | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 60 || value > max) throw new AdminError(`${flag} must be a whole number of seconds from 60 to ${max}`);
  return value;
}

export async function createClient(ctx: AdminContext, input: CreateClientInput) {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new AdminError('--name must be 1 to 100 characters');
  if (input.redirectUris.length === 0) throw new AdminError('--redirect-uri is required (repeat it for several)');
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new AdminError(`--redirect-uri ${uri} ${problem}`);
  }
  const scopes = input.scopes.split(' ').filter(Boolean);
  if (scopes.length === 0) throw new AdminError('--scopes must list at least one scope');
  const unknown = scopes.filter((s) => !known.has(s));
  if (unknown.length) throw new AdminError(`--scopes has unknown scopes: ${unknown.join(', ')} (known: ${SCOPES.join(' ')})`);
  for (const uri of input.postLogoutRedirectUris ?? []) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new AdminError(`--post-logout-redirect-uri ${uri} ${problem}`);
  }
  if (input.backchannelLogoutUri !== undefined && redirectUriProblem(input.backchannelLogoutUri))
    throw new AdminError(`--backchannel-logout-uri ${redirectUriProblem(input.backchannelLogoutUri)}`);
  if (input.fapiProfile === 'fapi2' && !(input.jwks || input.jwksUri))
    throw new AdminError('a fapi2 client authenticates with private_key_jwt: give --jwks or --jwks-uri');
  const presetCacheTtl = assertTtl(input.presetCacheTtl, '--preset-cache-ttl', 30 * 86_400);
  const accessTokenTtl = assertTtl(input.accessTokenTtl, '--access-token-ttl', 86_400);
  if (input.jwks && input.jwksUri) throw new AdminError('give --jwks or --jwks-uri, not both');
  if (input.public && (input.jwks || input.jwksUri)) throw new AdminError('a --public client has no keys: drop --jwks/--jwks-uri, or --public');
  if (input.jwksUri && redirectUriProblem(input.jwksUri)) throw new AdminError(`--jwks-uri ${redirectUriProblem(input.jwksUri)}`);
  const jwks = input.jwks ? parseJwks(input.jwks) : undefined;
  const method = input.tokenEndpointAuthMethod;
  if (method && (method === 'none') !== (input.public === true))
    throw new AdminError('token_endpoint_auth_method none is for a --public client, and only for one');
  const keyed = method === 'private_key_jwt' || method === 'self_signed_tls_client_auth';
  if (method === 'self_signed_tls_client_auth' && input.jwksUri)
    throw new AdminError('self_signed_tls_client_auth takes --jwks (the certificate’s key), not --jwks-uri');
  if (method && keyed !== Boolean(jwks || input.jwksUri))
    throw new AdminError(
      `token_endpoint_auth_method ${method} ${keyed ? 'needs --jwks or --jwks-uri' : 'takes no keys'}: keys are for private_key_jwt or self_signed_tls_client_auth`,
    );
  const policy = ZSignInPolicy.safeParse(input.signInPolicy ?? {});
  if (!policy.success) {
    const issue = policy.error.issues[0]!;
    throw new AdminError(`--${String(issue.path[0]).replaceAll('_', '-')} ${issue.message}`);
  }
  const org = await orgById(ctx, input.org);
  // A client that authenticates with its keys (private_key_jwt) has no shared secret.
  const secret = input.public || jwks || input.jwksUri ? null : generateClientSecret(ctx.environment);
  const app = await ctx.db.application.create({
    data: {
      clientId: generateClientId(ctx.environment),
      clientSecretHash: secret?.hash ?? null,
      name,
      organizationId: org.id,
      isPublic: input.public === true,
      redirectUris: [...new Set(input.redirectUris)],
      allowedScopes: [...new Set(scopes)],
      requiresPalmVerification: input.requiresPalmVerification === true,
      requiresDpop: input.requireDpop === true,
      requiresPushedAuthorization: input.requirePushedAuthorization === true,
      postLogoutRedirectUris: [...new Set(input.postLogoutRedirectUris ?? [])],
      ...(input.backchannelLogoutUri ? { backchannelLogoutUri: input.backchannelLogoutUri } : {}),
      ...(input.idTokenSignedResponseAlg ? { idTokenSignedResponseAlg: input.idTokenSignedResponseAlg } : {}),
      ...(input.introspectionSignedResponseAlg ? { introspectionSignedResponseAlg: input.introspectionSignedResponseAlg } : {}),
      // FAPI 2.0 binds tokens with DPoP, or with the client's certificate when it authenticates with one.
      ...(input.fapiProfile
        ? { fapiProfile: input.fapiProfile, requiresPushedAuthorization: true, requiresDpop: method !== 'self_signed_tls_client_auth' }
        : {}),
      ...(jwks ? { jwks: jwks as object } : {}),
      ...(input.jwksUri ? { jwksUri: input.jwksUri } : {}),
      ...(presetCacheTtl ? { presetCacheTtlSeconds: presetCacheTtl } : {}),
      ...(accessTokenTtl ? { accessTokenTtlSeconds: accessTokenTtl } : {}),
      ...(method ? { tokenEndpointAuthMethod: method } : {}),
      ...storedSignInPolicy(policy.data),
      ...(input.createdByUserId ? { createdByUserId: input.createdByUserId } : {}),
      ...(input.registrationTokenHash ? { registrationTokenHash: input.registrationTokenHash } : {}),
    },
  });
  return { client_id: app.clientId, client_secret: secret?.secret ?? null };
}
