import { createHash, randomBytes } from 'node:crypto';

export interface FlowClient {
  clientId: string;
  /** Confidential clients; public clients exchange with PKCE alone. */
  clientSecret?: string | null;
  redirectUri: string;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers, body });
  if (!res.ok) throw new Error(`${new URL(url).pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * The whole authorization-code flow against a running identity provider, as an API caller:
 * sign in, authorize with PKCE, approve, exchange. `count` separate authorizations, one token
 * response each (for load tools and end-to-end suites).
 */
export async function authorizeThroughApi(
  issuer: string,
  user: { email: string; password: string },
  client: FlowClient,
  scope: string,
  count = 1,
): Promise<Record<string, unknown>[]> {
  const session = await post(`${issuer}/auth/session`, JSON.stringify(user), { 'content-type': 'application/json' });
  const basic: Record<string, string> = client.clientSecret
    ? { authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}` }
    : {};
  const tokens: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope,
      state: randomBytes(8).toString('hex'),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const started = (await (await fetch(`${issuer}/oauth/authorize?${query}`, { headers: { accept: 'application/json' } })).json()) as {
      authorization_id: string;
    };
    const approved = await post(`${issuer}/oauth/authorize/approve`, JSON.stringify({ authorization_id: started.authorization_id }), {
      'content-type': 'application/json',
      authorization: `Bearer ${session.session_token}`,
    });
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: String(approved.code),
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      ...(client.clientSecret ? {} : { client_id: client.clientId }),
    });
    tokens.push(await post(`${issuer}/oauth/token`, form.toString(), { 'content-type': 'application/x-www-form-urlencoded', ...basic }));
  }
  return tokens;
}
