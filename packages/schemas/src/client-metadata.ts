// What a client may register, checked the same way wherever it is registered: the admin CLI, the
// developer console and API, and RFC 7591 registration.
import { type Acr, ZSignInPolicy } from './assurance.js';
import { GRANT_TYPES, type GrantType, grantTypesFor, grantTypesInWords } from './grant-types.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// RFC 8252 §7.1: native apps use a reverse-domain private-use scheme such as com.example.app.
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;
// A host of DNS labels or an IP literal: nothing that could change what a header naming the URI's origin says.
const PLAIN_HOST = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/;

/**
 * Why a redirect URI cannot be registered, or undefined when it can. Matching is exact at
 * authorization time, so registration is where the shape is policed: no fragments, no
 * credentials, https except on loopback, or a native app's private-use scheme.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.host && !PLAIN_HOST.test(url.hostname)) return 'must name its host with letters, digits, hyphens and dots (or an IP address)';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname) ? undefined : 'must use https (http is allowed only for localhost)';
  if (PRIVATE_USE_SCHEME.test(url.protocol)) return undefined;
  return `uses the scheme ${url.protocol} which is not allowed`;
}

const ASSERTION_KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);
/** RFC 7517/7518: what only a private or symmetric key holds (RSA's CRT parameters, EC/OKP's d, oct's k). */
const PRIVATE_MEMBERS = ['d', 'k', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

/**
 * Why a JWK Set cannot be a client's keys (private_key_jwt), or undefined when it can: 1 to 10
 * public RSA, EC or OKP keys, nothing private or symmetric.
 */
export function jwksProblem(jwks: unknown): string | undefined {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray(keys)) return 'must be a JWK Set ({"keys": [...]})';
  if (keys.length === 0 || keys.length > 10) return 'must hold 1 to 10 keys';
  for (const key of keys as unknown[]) {
    if (typeof key !== 'object' || key === null || !ASSERTION_KEY_TYPES.has(String((key as { kty?: unknown }).kty)))
      return 'keys must be RSA, EC or OKP public keys';
    const secret = PRIVATE_MEMBERS.find((m) => m in key);
    if (secret) return `must hold public keys only (a member "${secret}" was found)`;
  }
  return undefined;
}

// ---- RFC 7591 client metadata: what POST /oauth/register and `admin client:register` take ----

/** The metadata this server registers; anything else a client sends is ignored (RFC 7591 §2). */
export interface ClientMetadata {
  redirect_uris: string[];
  /** self_signed_tls_client_auth (RFC 8705 §2.2): a client certificate whose key is in its registered `jwks`. */
  token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'self_signed_tls_client_auth' | 'none';
  /** client_credentials for every confidential client (a token for itself), never for a public one. */
  grant_types: GrantType[];
  response_types: ['code'];
  client_name: string;
  scope: string;
  jwks?: { keys: Record<string, unknown>[] };
  jwks_uri?: string;
  /** RFC 9449 §5.2: every access token of this client must be DPoP-bound. */
  dpop_bound_access_tokens: boolean;
  /** RFC 9126 §6: every authorization request must be pushed to the PAR endpoint first. */
  require_pushed_authorization_requests: boolean;
  /** RP-Initiated Logout 1.0 §3.1: where the client's users may be sent after signing out, matched exactly. */
  post_logout_redirect_uris: string[];
  /** Back-Channel Logout 1.0 §2.2: where the client is told a session ended. */
  backchannel_logout_uri?: string;
  /** Every logout token carries sid, so this is always true in what is registered. */
  backchannel_logout_session_required: boolean;
  /** RFC 8705 §3.4: its access tokens are bound to its certificate (so it authenticates with one). */
  tls_client_certificate_bound_access_tokens: boolean;
  /** What the server signs the client's id_tokens (and logout tokens) with; RS256 by default. */
  id_token_signed_response_alg: 'RS256' | 'PS256';
  /** RFC 9701: what signed introspection answers for this client are signed with; RS256 by default. */
  introspection_signed_response_alg: 'RS256' | 'PS256';
  /**
   * "fapi2": held to the FAPI 2.0 Security Profile as a whole. It implies PAR, DPoP-bound tokens
   * and PS256, and needs private_key_jwt; what is registered says so.
   */
  fapi_profile?: 'fapi2';
  /** OpenID Connect Registration §2, and RFC 9470 step-up for sensitive presets (assurance.ts). */
  default_acr_values?: Acr[];
  default_max_age?: number;
  sensitive_data_acr?: Acr;
  sensitive_data_max_age?: number;
}

const SERVER_ALGORITHMS = ['RS256', 'PS256'] as const;
const isGrantType = (g: string): g is GrantType => (GRANT_TYPES as readonly string[]).includes(g);

/** RFC 7591 §3.2.2: a redirect URI problem is invalid_redirect_uri, any other invalid_client_metadata. */
export type MetadataProblem = { code: 'invalid_redirect_uri' | 'invalid_client_metadata'; field: string; message: string };

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'self_signed_tls_client_auth', 'none'] as const;
// The methods that authenticate with the client's registered public keys, and never a secret.
const KEYED_METHODS: readonly unknown[] = ['private_key_jwt', 'self_signed_tls_client_auth'];
const MAX_NAME = 100;

/**
 * Checks RFC 7591 client metadata as strictly as the console: exact redirect URIs (https, or http
 * on loopback), known auth methods, grant types, scopes and public keys. `knownScopes`: the
 * scopes this server has. Unknown members are ignored, as the RFC requires.
 */
export function parseClientMetadata(
  input: unknown,
  knownScopes: readonly string[],
): { ok: true; value: ClientMetadata } | { ok: false; problems: MetadataProblem[] } {
  const problems: MetadataProblem[] = [];
  const bad = (field: string, message: string, code: MetadataProblem['code'] = 'invalid_client_metadata') => problems.push({ code, field, message });
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, problems: [{ code: 'invalid_client_metadata', field: 'body', message: 'must be a JSON object of client metadata' }] };
  const m = input as Record<string, unknown>;
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');

  const redirectUris = m.redirect_uris;
  if (!strings(redirectUris) || (redirectUris as string[]).length === 0 || (redirectUris as string[]).length > 20)
    bad('redirect_uris', 'must list 1 to 20 redirect URIs (only the authorization code flow is supported)', 'invalid_redirect_uri');
  else
    (redirectUris as string[]).forEach((uri, i) => {
      const problem = redirectUriProblem(uri);
      if (problem) bad(`redirect_uris[${i}]`, problem, 'invalid_redirect_uri');
    });

  const method = m.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!(AUTH_METHODS as readonly unknown[]).includes(method)) bad('token_endpoint_auth_method', `must be one of ${AUTH_METHODS.join(', ')}`);

  // Naming none asks for what every client is registered with.
  const grants = m.grant_types ?? grantTypesFor('none');
  const others = GRANT_TYPES.filter((g) => g !== 'authorization_code');
  if (!strings(grants) || !(grants as string[]).every(isGrantType) || !(grants as string[]).includes('authorization_code'))
    bad('grant_types', `must include authorization_code, and otherwise only ${grantTypesInWords(others)}`);
  else {
    const refused = (grants as GrantType[]).find((g) => !grantTypesFor(String(method)).includes(g));
    if (refused) bad('grant_types', `${refused} is for a client that authenticates, not token_endpoint_auth_method none`);
  }
  const responses = m.response_types ?? ['code'];
  if (!strings(responses) || (responses as string[]).length !== 1 || (responses as string[])[0] !== 'code') bad('response_types', 'must be ["code"]');

  const name = m.client_name;
  if (name !== undefined && (typeof name !== 'string' || !name.trim() || name.length > MAX_NAME)) bad('client_name', `must be 1 to ${MAX_NAME} characters`);

  const scope = m.scope ?? 'openid';
  const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
  if (typeof scope !== 'string' || scopes.length === 0) bad('scope', 'must be a space-separated list of scopes');
  else {
    const unknown = scopes.filter((s) => !knownScopes.includes(s));
    if (unknown.length) bad('scope', `has unknown scopes: ${unknown.join(' ')}`);
  }

  if (m.jwks !== undefined && m.jwks_uri !== undefined) bad('jwks', 'give jwks or jwks_uri, not both');
  if (m.jwks !== undefined) {
    const problem = jwksProblem(m.jwks);
    if (problem) bad('jwks', problem);
  }
  if (m.jwks_uri !== undefined && (typeof m.jwks_uri !== 'string' || !m.jwks_uri.startsWith('https://') || redirectUriProblem(m.jwks_uri)))
    bad('jwks_uri', 'must be an https URL');
  const hasKeys = m.jwks !== undefined || m.jwks_uri !== undefined;
  if (KEYED_METHODS.includes(method) && !hasKeys) bad('jwks', `is required for ${method} (or jwks_uri)`);
  if (method === 'self_signed_tls_client_auth' && m.jwks_uri !== undefined)
    bad('jwks_uri', 'is not for self_signed_tls_client_auth: register the certificate’s key in jwks');
  if (!KEYED_METHODS.includes(method) && hasKeys) bad('jwks', 'is only for token_endpoint_auth_method private_key_jwt or self_signed_tls_client_auth');
  if (m.dpop_bound_access_tokens !== undefined && typeof m.dpop_bound_access_tokens !== 'boolean') bad('dpop_bound_access_tokens', 'must be true or false');
  const postLogout = m.post_logout_redirect_uris ?? [];
  if (!strings(postLogout) || (postLogout as string[]).length > 20) bad('post_logout_redirect_uris', 'must list at most 20 URIs');
  else
    (postLogout as string[]).forEach((uri, i) => {
      const problem = redirectUriProblem(uri);
      if (problem) bad(`post_logout_redirect_uris[${i}]`, problem);
    });
  const backchannel = m.backchannel_logout_uri;
  if (backchannel !== undefined && (typeof backchannel !== 'string' || redirectUriProblem(backchannel)))
    bad('backchannel_logout_uri', typeof backchannel === 'string' ? redirectUriProblem(backchannel)! : 'must be a URI');
  if (m.backchannel_logout_session_required !== undefined && typeof m.backchannel_logout_session_required !== 'boolean')
    bad('backchannel_logout_session_required', 'must be true or false');
  for (const member of ['id_token_signed_response_alg', 'introspection_signed_response_alg'] as const) {
    const alg = m[member];
    if (alg !== undefined && !(SERVER_ALGORITHMS as readonly unknown[]).includes(alg)) bad(member, `must be one of ${SERVER_ALGORITHMS.join(', ')}`);
  }
  const fapi = m.fapi_profile;
  if (fapi !== undefined && fapi !== 'fapi2') bad('fapi_profile', 'must be "fapi2" (the FAPI 2.0 Security Profile)');
  if (fapi === 'fapi2') {
    // FAPI 2.0 §5.3.2.1 and §5.3.3.4: only asymmetric client authentication (mTLS is not offered here).
    if (!KEYED_METHODS.includes(method)) bad('token_endpoint_auth_method', 'must be private_key_jwt or self_signed_tls_client_auth under fapi_profile fapi2');
    const weaker = (
      [
        ['require_pushed_authorization_requests', false],
        ...(method === 'self_signed_tls_client_auth' ? [] : ([['dpop_bound_access_tokens', false]] as const)),
        ['id_token_signed_response_alg', 'RS256'],
        ['introspection_signed_response_alg', 'RS256'],
      ] as const
    ).filter(([member, value]) => m[member] === value);
    for (const [member, value] of weaker) bad(member, `cannot be ${JSON.stringify(value)} under fapi_profile fapi2`);
  }
  const par = m.require_pushed_authorization_requests;
  if (par !== undefined && typeof par !== 'boolean') bad('require_pushed_authorization_requests', 'must be true or false');

  const policy = ZSignInPolicy.safeParse({
    default_acr_values: m.default_acr_values,
    default_max_age: m.default_max_age,
    sensitive_data_acr: m.sensitive_data_acr,
    sensitive_data_max_age: m.sensitive_data_max_age,
  });
  if (!policy.success) for (const issue of policy.error.issues) bad(issue.path.join('.'), issue.message);

  if (problems.length || !policy.success) return { ok: false, problems };
  const uris = redirectUris as string[];
  return {
    ok: true,
    value: {
      redirect_uris: [...new Set(uris)],
      token_endpoint_auth_method: method as ClientMetadata['token_endpoint_auth_method'],
      // What this server registers for the client's auth method, whatever it asked for (RFC 7591 §3.2.1).
      grant_types: grantTypesFor(method as string),
      response_types: ['code'],
      // A name the consent page can show: the one given, or the redirect URI's host.
      client_name: typeof name === 'string' ? name.trim() : new URL(uris[0]!).host || uris[0]!,
      scope: [...new Set(scopes)].join(' '),
      ...(m.jwks !== undefined ? { jwks: m.jwks as ClientMetadata['jwks'] } : {}),
      ...(typeof m.jwks_uri === 'string' ? { jwks_uri: m.jwks_uri } : {}),
      dpop_bound_access_tokens: m.dpop_bound_access_tokens === true || (fapi === 'fapi2' && method !== 'self_signed_tls_client_auth'),
      tls_client_certificate_bound_access_tokens: method === 'self_signed_tls_client_auth',
      require_pushed_authorization_requests: par === true || fapi === 'fapi2',
      post_logout_redirect_uris: [...new Set(postLogout as string[])],
      ...(typeof backchannel === 'string' ? { backchannel_logout_uri: backchannel } : {}),
      backchannel_logout_session_required: true,
      id_token_signed_response_alg: fapi === 'fapi2' || m.id_token_signed_response_alg === 'PS256' ? 'PS256' : 'RS256',
      introspection_signed_response_alg: fapi === 'fapi2' || m.introspection_signed_response_alg === 'PS256' ? 'PS256' : 'RS256',
      ...(fapi === 'fapi2' ? { fapi_profile: 'fapi2' as const } : {}),
      ...Object.fromEntries(Object.entries(policy.data).filter(([, v]) => v !== undefined)),
    },
  };
}
