/**
 * The identity provider as the authorization server of OpenID4VCI's authorization code flow: a
 * wallet brings an access token from it, which this issuer first checks itself (the identity
 * provider's signature from its published keys, its issuer, `typ` at+jwt, this issuer in `aud`,
 * not expired), so that nothing else is ever sent there; then asks it (RFC 7662 introspection,
 * with this issuer's own confidential client) whether the token is still live, which credentials
 * the person approved, and what their verified data says for each.
 */
import { type GrantedCredentialDetail, ZIntrospectionResponse, ZWalletApprovalsResponse } from '@svc/schemas';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { AuthorizationServer } from '../../config.js';
import { authorizationServerUnavailable } from '../errors.js';

/** What a live wallet token grants here. */
export interface ApprovedGrant {
  /** The approval at the identity provider: one credential of each granted configuration per approval. */
  authorizationId: string;
  details: GrantedCredentialDetail[];
  /** Per granted configuration: the claims the person's data holds, and when the first verification behind them expires. */
  data: Record<string, { claims: Record<string, unknown>; expires_at?: number | undefined }>;
  /** The thumbprint of the key the token is bound to (DPoP), if it is. */
  jkt: string | undefined;
  /** Bound to a client certificate (RFC 8705), which this issuer cannot check. */
  certificateBound: boolean;
}

const TIMEOUT_MS = 5000;
/** After the identity provider could not be reached, how long requests are refused at once before it is tried again. */
const RETRY_AFTER_MS = 5000;
/** The access tokens' algorithms at the identity provider (its key set holds RSA keys only). */
const TOKEN_ALGORITHMS = ['RS256', 'PS256'];
/** jose's failures that are the key set's (unreachable, not 200, not a key set), not the token's. */
const KEY_SET_FAILURES = new Set(['ERR_JOSE_GENERIC', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

/** What this issuer reads from an identity provider's token it verified itself, before asking anything. */
export interface VerifiedWalletToken {
  authorizationId: string;
  /** The thumbprint of the key the token is bound to (DPoP), if it is. */
  jkt: string | undefined;
  /** Bound to a client certificate (RFC 8705), which this issuer cannot check. */
  certificateBound: boolean;
}

export interface AuthorizationServerClient {
  /**
   * The identity provider's access token for this issuer, checked here: its signature (the
   * identity provider's published keys), issuer, `typ` at+jwt, this issuer in `aud`, not expired.
   * Undefined for anything else, which is never sent there.
   */
  verify(token: string): Promise<VerifiedWalletToken | undefined>;
  /** What a verified token grants here, asked of the identity provider; undefined when it is no longer live or grants nothing here. */
  approvedGrant(token: string): Promise<ApprovedGrant | undefined>;
  /**
   * Which of these approvals (at most 50) the identity provider knows to have ended (revoked, or
   * their application revoked); one it does not know is not among them. Throws when it cannot be
   * asked, or answers about other ids than these.
   */
  endedApprovals(authorizationIds: string[]): Promise<Set<string>>;
}

interface Endpoints {
  introspection: string;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

export function authorizationServerClient(server: AuthorizationServer, credentialIssuer: string): AuthorizationServerClient {
  // Discovered once. A failure to reach it is remembered for a few seconds (each request meanwhile
  // is refused at once), then tried again. Both endpoints must be on the identity provider's own
  // origin: the client secret goes nowhere else.
  let endpoints: Promise<Endpoints> | undefined;
  let unreachableUntil = 0;
  const origin = new URL(server.issuer).origin;
  const discover = async (): Promise<Endpoints> => {
    const res = await fetch(`${server.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    const metadata = res.ok ? ((await res.json()) as { issuer?: unknown; introspection_endpoint?: unknown; jwks_uri?: unknown }) : {};
    const own = (url: unknown): url is string => typeof url === 'string' && URL.canParse(url) && new URL(url).origin === origin;
    if (metadata.issuer !== server.issuer || !own(metadata.introspection_endpoint) || !own(metadata.jwks_uri))
      throw new Error('the identity provider publishes no introspection endpoint or keys of its own');
    return {
      introspection: metadata.introspection_endpoint,
      keys: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: TIMEOUT_MS, cooldownDuration: 30_000 }),
    };
  };
  const unavailable = () => {
    unreachableUntil = Date.now() + RETRY_AFTER_MS;
    return authorizationServerUnavailable();
  };
  const found = async () => {
    if (Date.now() < unreachableUntil) throw authorizationServerUnavailable();
    endpoints ??= discover();
    try {
      return await endpoints;
    } catch {
      endpoints = undefined;
      throw unavailable();
    }
  };
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(server.clientId)}:${encodeURIComponent(server.clientSecret)}`).toString('base64')}`;

  return {
    async verify(token) {
      const { keys } = await found();
      let payload: { authorization_id?: unknown; cnf?: { jkt?: unknown; 'x5t#S256'?: unknown } };
      try {
        const verified = await jwtVerify(token, keys, { issuer: server.issuer, audience: credentialIssuer, typ: 'at+jwt', algorithms: TOKEN_ALGORITHMS });
        payload = verified.payload as typeof payload;
      } catch (err) {
        // The key set out of reach is an outage; anything else is a token that is not good here.
        if (KEY_SET_FAILURES.has((err as { code?: string }).code ?? '') || err instanceof TypeError) throw unavailable();
        return undefined;
      }
      if (typeof payload.authorization_id !== 'string') return undefined;
      const jkt = payload.cnf?.jkt;
      return {
        authorizationId: payload.authorization_id,
        jkt: typeof jkt === 'string' ? jkt : undefined,
        certificateBound: payload.cnf?.['x5t#S256'] !== undefined,
      };
    },

    async approvedGrant(token) {
      const { introspection } = await found();
      let answer: unknown;
      try {
        const res = await fetch(introspection, {
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'error',
        });
        if (!res.ok) throw new Error(`introspection answered ${res.status}`);
        answer = await res.json();
      } catch {
        throw unavailable();
      }
      const parsed = ZIntrospectionResponse.safeParse(answer);
      if (!parsed.success || !parsed.data.active || !parsed.data.authorization_id) return undefined;
      // Only what was granted for this issuer (a misconfigured identity provider may name another).
      const details = (parsed.data.authorization_details ?? []).filter((d) => d.locations?.includes(credentialIssuer));
      if (details.length === 0) return undefined;
      const { cnf } = parsed.data;
      return {
        authorizationId: parsed.data.authorization_id,
        details,
        data: parsed.data.credential_data ?? {},
        jkt: cnf?.jkt,
        certificateBound: cnf?.['x5t#S256'] !== undefined,
      };
    },

    async endedApprovals(authorizationIds) {
      const body = new URLSearchParams(authorizationIds.map((id): [string, string] => ['authorization_id', id]));
      const res = await fetch(`${server.issuer}/oauth/wallet-approvals`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
      if (!res.ok) throw new Error(`the identity provider's wallet-approvals answered ${res.status}`);
      const { approvals } = ZWalletApprovalsResponse.parse(await res.json());
      // An answer about other approvals than those asked is no answer: nothing is revoked on it.
      const asked = new Set(authorizationIds);
      if (approvals.length !== asked.size || approvals.some((a) => !asked.has(a.authorization_id)))
        throw new Error('the identity provider answered about other approvals than those asked');
      return new Set(approvals.filter((a) => a.status === 'ended').map((a) => a.authorization_id));
    },
  };
}
