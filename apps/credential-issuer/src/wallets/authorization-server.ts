/**
 * The identity provider as the authorization server of OpenID4VCI's authorization code flow: a
 * wallet brings an access token from it, and this issuer asks it (RFC 7662 introspection, with
 * its own confidential client) whether the token is live, which credentials the person approved,
 * and what their verified data says for each. Nothing in the token is trusted on its own.
 */
import { type GrantedCredentialDetail, ZIntrospectionResponse } from '@svc/schemas';
import type { AuthorizationServer } from '../config.js';
import { authorizationServerUnavailable } from '../errors.js';

/** What a live wallet token grants here. */
export interface ApprovedGrant {
  details: GrantedCredentialDetail[];
  claims: Record<string, Record<string, unknown>>;
  /** The thumbprint of the key the token is bound to (DPoP), if it is. */
  jkt: string | undefined;
  /** Bound to a client certificate (RFC 8705), which this issuer cannot check. */
  certificateBound: boolean;
}

const TIMEOUT_MS = 5000;

export interface AuthorizationServerClient {
  /** The grant behind `token`; undefined when it is not active or grants nothing of this issuer's. */
  approvedGrant(token: string): Promise<ApprovedGrant | undefined>;
}

export function authorizationServerClient(server: AuthorizationServer, credentialIssuer: string): AuthorizationServerClient {
  // Discovered once; a failure is forgotten, so the next request tries again.
  let endpoint: Promise<string> | undefined;
  const discover = async () => {
    const res = await fetch(`${server.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    const metadata = res.ok ? ((await res.json()) as { issuer?: unknown; introspection_endpoint?: unknown }) : {};
    if (metadata.issuer !== server.issuer || typeof metadata.introspection_endpoint !== 'string') throw new Error('no introspection endpoint');
    return metadata.introspection_endpoint;
  };
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(server.clientId)}:${encodeURIComponent(server.clientSecret)}`).toString('base64')}`;

  return {
    async approvedGrant(token) {
      let answer: unknown;
      try {
        endpoint ??= discover();
        const res = await fetch(await endpoint, {
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'error',
        });
        if (!res.ok) throw new Error(`introspection answered ${res.status}`);
        answer = await res.json();
      } catch {
        endpoint = undefined;
        throw authorizationServerUnavailable();
      }
      const parsed = ZIntrospectionResponse.safeParse(answer);
      if (!parsed.success || !parsed.data.active) return undefined;
      // Only what was granted for this issuer (a misconfigured identity provider may name another).
      const details = (parsed.data.authorization_details ?? []).filter((d) => d.locations?.includes(credentialIssuer));
      if (details.length === 0) return undefined;
      const { cnf } = parsed.data;
      return { details, claims: parsed.data.credential_claims ?? {}, jkt: cnf?.jkt, certificateBound: cnf?.['x5t#S256'] !== undefined };
    },
  };
}
