import type {
  AuthorizationList,
  OpenIdConfiguration,
  PresetInfo,
  PresetError,
  PresetResult,
  Proof,
  ProofCheck,
  RevokeResponse,
  ServiceConfiguration,
  TokenResponse,
  UserInfo,
  UserTokenResponse,
} from './contract-types.js';
import { call, type TransportOptions } from './http.js';

export interface IdentityClientOptions extends TransportOptions {
  /** The issuer (PUBLIC_URL of the identity provider). */
  issuer: string;
  clientId: string;
  /** Confidential clients only; sent with client_secret_basic. */
  clientSecret?: string;
}

export interface AuthorizationUrlInput {
  redirectUri: string;
  scope: string | string[];
  state: string;
  /** From createPkce(); S256 is the only method. */
  codeChallenge: string;
  nonce?: string;
  loginHint?: string;
  /** BCP 47; the hosted pages speak English, German and French. */
  locale?: string;
  /** none, login or consent (OpenID Connect): `none` answers at once, with a code or an error such as login_required. */
  prompt?: string;
  /** Seconds since the person last signed in, at most (an InsufficientUserAuthenticationError says what to send). */
  maxAge?: number;
  /** Acceptable acr values, weakest last or first as you prefer: pwd, phr (a passkey), phrh (a passkey on attested hardware). */
  acrValues?: string;
}

export type Query =
  | { check: { claim: string; operator: string; value?: unknown } }
  | { policy: Record<string, unknown> }
  | { projections: { claim: string; lens: unknown }[] };

export interface PredicateResult {
  type: 'predicate';
  passed: boolean;
  evaluatedAt: string;
  evidence: {
    claimsUsed: { path: string; value: unknown; credentialId?: string; source?: string }[];
    checkResults: { claim: string; operator: string; expectedValue: unknown; actualValue: unknown; passed: boolean }[];
  };
  expiresAt?: string;
}

export interface ProjectionResult {
  type: 'projection';
  data: Record<string, unknown>;
  evaluatedAt: string;
  claimsUsed: { path: string; value: unknown; credentialId?: string; source?: string }[];
  expiresAt?: string;
}

/** The identity provider for one client: OAuth with PKCE, tokens, user info, presets, queries and proofs of actions. */
export class IdentityClient {
  constructor(private readonly options: IdentityClientOptions) {}

  private get auth(): Record<string, string> {
    const { clientId, clientSecret } = this.options;
    // RFC 6749 §2.3.1: id and secret are form-encoded before Basic.
    return clientSecret
      ? { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}` }
      : {};
  }

  private bearer(accessToken: string): Record<string, string> {
    return { authorization: `Bearer ${accessToken}` };
  }

  /** Where to send the user's browser. Keep `state` and the PKCE verifier for the callback. */
  authorizationUrl(input: AuthorizationUrlInput): string {
    const url = new URL('oauth/authorize', this.options.issuer.endsWith('/') ? this.options.issuer : `${this.options.issuer}/`);
    const params: Record<string, string | undefined> = {
      client_id: this.options.clientId,
      redirect_uri: input.redirectUri,
      response_type: 'code',
      scope: Array.isArray(input.scope) ? input.scope.join(' ') : input.scope,
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: 'S256',
      nonce: input.nonce,
      login_hint: input.loginHint,
      locale: input.locale,
      prompt: input.prompt,
      max_age: input.maxAge === undefined ? undefined : String(input.maxAge),
      acr_values: input.acrValues,
    };
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    return url.toString();
  }

  /**
   * Reads the callback URL: the code when `state` matches and the issuer is ours (RFC 9207),
   * otherwise throws (the user denied, or the response is not for this request).
   */
  parseCallback(callbackUrl: string, expected: { state: string }): { code: string } {
    const params = new URL(callbackUrl).searchParams;
    if (params.get('state') !== expected.state) throw new Error('The callback state does not match this request');
    const iss = params.get('iss');
    if (iss !== null && iss !== this.options.issuer.replace(/\/+$/, '')) throw new Error(`The callback comes from another issuer (${iss})`);
    const error = params.get('error');
    if (error) throw new Error(`Authorization failed: ${error}${params.get('error_description') ? `: ${params.get('error_description')}` : ''}`);
    const code = params.get('code');
    if (!code) throw new Error('The callback carries no code');
    return { code };
  }

  private async token(form: Record<string, string>): Promise<TokenResponse> {
    const body = this.options.clientSecret ? form : { ...form, client_id: this.options.clientId };
    return (await call<TokenResponse>(this.options.issuer, '/oauth/token', { form: body, headers: this.auth }, this.options)).body;
  }

  exchangeCode(input: { code: string; redirectUri: string; codeVerifier: string }): Promise<TokenResponse> {
    return this.token({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier });
  }

  /** Rotates: use the returned refresh token next time; the old one is spent. `scope` may narrow, never widen. */
  refresh(refreshToken: string, options: { scope?: string | string[] } = {}): Promise<TokenResponse> {
    const scope = Array.isArray(options.scope) ? options.scope.join(' ') : options.scope;
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope ? { scope } : {}) });
  }

  /** RFC 7009 plus the service's extensions; `cascade` also revokes the authorization behind a token. */
  async revoke(input: {
    token?: string;
    tokens?: string[];
    authorizationId?: string;
    tokenTypeHint?: 'access_token' | 'refresh_token' | 'authorization';
    cascade?: boolean;
  }): Promise<RevokeResponse> {
    const json = {
      ...(input.token ? { token: input.token } : {}),
      ...(input.tokens ? { tokens: input.tokens } : {}),
      ...(input.authorizationId ? { authorization_id: input.authorizationId } : {}),
      ...(input.tokenTypeHint ? { token_type_hint: input.tokenTypeHint } : {}),
      ...(input.cascade !== undefined ? { cascade: input.cascade } : {}),
      ...(this.options.clientSecret ? {} : { client_id: this.options.clientId }),
    };
    return (await call<RevokeResponse>(this.options.issuer, '/oauth/revoke', { json, headers: this.auth }, this.options)).body;
  }

  /**
   * A token for a user who already authorized this (confidential) client, without a browser.
   * `userId` is the UUID wallet-verify answers this client's organization (its `user_id`).
   */
  async userToken(user: { email: string } | { userId: string } | { evmAddress: string } | { identifier: string }): Promise<UserTokenResponse> {
    if (!this.options.clientSecret) throw new Error('userToken needs a confidential client (clientSecret)');
    const named =
      'email' in user
        ? { email: user.email }
        : 'userId' in user
          ? { user_id: user.userId }
          : 'evmAddress' in user
            ? { evm_address: user.evmAddress }
            : { identifier: user.identifier };
    const json = { client_id: this.options.clientId, client_secret: this.options.clientSecret, ...named };
    return (await call<UserTokenResponse>(this.options.issuer, '/oauth/client/user-token', { json }, this.options)).body;
  }

  async userInfo(accessToken: string): Promise<UserInfo> {
    return (await call<UserInfo>(this.options.issuer, '/v2/userinfo', { headers: this.bearer(accessToken) }, this.options)).body;
  }

  async listPresets(): Promise<PresetInfo[]> {
    return (await call<{ presets: PresetInfo[] }>(this.options.issuer, '/v2/presets', {}, this.options)).body.presets;
  }

  /** One preset; a refusal throws PresetApiError with its code (E4003, E4004, …). */
  async preset(accessToken: string, name: string): Promise<PresetResult> {
    return (await call<PresetResult>(this.options.issuer, `/v2/presets/${encodeURIComponent(name)}`, { headers: this.bearer(accessToken) }, this.options)).body;
  }

  /** Up to 50 presets: results and per-item errors side by side (a per-item refusal does not throw). */
  async presets(accessToken: string, names: string[]): Promise<{ results: PresetResult[]; errors: { preset: string; error: PresetError }[] }> {
    return (
      await call<{ results: PresetResult[]; errors: { preset: string; error: PresetError }[] }>(
        this.options.issuer,
        '/v2/presets/batch',
        { json: { presets: names }, headers: this.bearer(accessToken) },
        this.options,
      )
    ).body;
  }

  async evaluate(accessToken: string, query: Query): Promise<PredicateResult | ProjectionResult> {
    return (
      await call<PredicateResult | ProjectionResult>(
        this.options.issuer,
        '/v2/queries/evaluate',
        { json: { query }, headers: this.bearer(accessToken) },
        this.options,
      )
    ).body;
  }

  /** The organization's authorization changes since `updatedSince` (client credentials). */
  async authorizations(query: { status?: 'active' | 'revoked'; updatedSince?: string; limit?: number } = {}): Promise<AuthorizationList> {
    const params = new URLSearchParams();
    if (query.status) params.set('status', query.status);
    if (query.updatedSince) params.set('updated_since', query.updatedSince);
    if (query.limit) params.set('limit', String(query.limit));
    return (await call<AuthorizationList>(this.options.issuer, `/v2/authorizations?${params}`, { headers: this.auth }, this.options)).body;
  }

  /**
   * The person behind `accessToken` (scope openid, of any of your organization's applications)
   * proves `action`: counted under their nullifier for it, which is neither the `sub` nor linkable
   * to any other action. `signal` (a vote's choice, a wallet address) is bound by its SHA-256.
   * Over the action's limit this throws MaxVerificationsReachedError with the same nullifier; a
   * person who is not palm-verified, where the action needs it, NotUniqueHumanError.
   */
  async proveAction(accessToken: string, action: string, options: { signal?: string } = {}): Promise<Proof> {
    const json = options.signal === undefined ? {} : { signal: options.signal };
    return (
      await call<Proof>(this.options.issuer, `/v2/actions/${encodeURIComponent(action)}/proofs`, { json, headers: this.bearer(accessToken) }, this.options)
    ).body;
  }

  /**
   * Your backend checks a nullifier the app handed it (client credentials of a confidential
   * client): how often it proved `action`, when last and with which signal hash. A nullifier with
   * no proof of the action throws SvcApiError 404 `proof_not_found`.
   */
  async checkActionProof(action: string, nullifier: string): Promise<ProofCheck> {
    if (!this.options.clientSecret) throw new Error('checkActionProof needs a confidential client (clientSecret)');
    const path = `/v2/actions/${encodeURIComponent(action)}/proofs/${encodeURIComponent(nullifier)}`;
    return (await call<ProofCheck>(this.options.issuer, path, { headers: this.auth }, this.options)).body;
  }

  async discovery(): Promise<{ openid: OpenIdConfiguration; service: ServiceConfiguration }> {
    const [openid, service] = await Promise.all([
      call<OpenIdConfiguration>(this.options.issuer, '/.well-known/openid-configuration', {}, this.options),
      call<ServiceConfiguration>(this.options.issuer, '/.well-known/svc-configuration', {}, this.options),
    ]);
    return { openid: openid.body, service: service.body };
  }
}
