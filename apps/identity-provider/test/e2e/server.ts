import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from '@jest/globals';
import type { Db } from '@svc/db';
import { freePort, startService, testDatabaseUrl, testDb, testRedisUrl } from '@svc/testkit';
import * as oidc from 'openid-client';
import { REDIS_KEY_PREFIX, SECRET } from '../helpers.js';

/** The built identity provider as a real process, as integrators meet it. */
/** `hostname`: `localhost` where the browser uses passkeys (WebAuthn refuses an IP address as RP ID). */
export async function startIdentityProvider(
  options: { hostname?: 'localhost'; env?: NodeJS.ProcessEnv } = {},
): Promise<{ issuer: string; stop(): Promise<void> }> {
  const port = await freePort();
  const issuer = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
  const service = await startService('identity-provider', {
    ...options.env,
    PORT: String(port),
    DATABASE_URL: testDatabaseUrl(),
    ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    IDP_SECRET: SECRET,
    REDIS_KEY_PREFIX,
    PUBLIC_URL: issuer,
    // Clients' back-channel logout URIs are the callback server on this machine.
    JWKS_URI_ALLOW_PRIVATE: 'true',
    // Wallets may ask for credentials of this (unreachable) issuer: the consent page shows them.
    CREDENTIAL_ISSUER_URL: 'https://issuer.example',
    CREDENTIAL_ISSUER_CLIENT_ID: 'not-a-client-of-these-tests',
  });
  return { issuer, stop: service.stop };
}

/**
 * A client's own server: records the query of each request it is sent (its redirect endpoint) and
 * the body of each POST (its back-channel logout endpoint), and answers a small page.
 */
export async function startCallbackServer(): Promise<{ url: string; hits: URL[]; posts: { url: URL; body: string }[]; close(): Promise<void> }> {
  const hits: URL[] = [];
  const posts: { url: URL; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    hits.push(url);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST') posts.push({ url, body });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>callback received</p>');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, hits, posts, close: () => new Promise((r) => server.close(() => r())) };
}

/** A Prisma client, the running provider and a callback server for one e2e suite. */
export function useRunningIdp(): {
  readonly db: Db;
  readonly idp: Awaited<ReturnType<typeof startIdentityProvider>>;
  readonly callback: Awaited<ReturnType<typeof startCallbackServer>>;
} {
  const held = {} as { db: Db; idp: Awaited<ReturnType<typeof startIdentityProvider>>; callback: Awaited<ReturnType<typeof startCallbackServer>> };
  beforeAll(async () => {
    held.db = testDb();
    held.idp = await startIdentityProvider();
    held.callback = await startCallbackServer();
  });
  afterAll(async () => {
    await held.idp.stop();
    await held.callback.close();
    await held.db.$disconnect();
  });
  return held;
}

/**
 * openid-client's authorization code flow (PKCE, state, nonce, an id_token expected), the user's
 * part done through the JSON API as a device would: sign in, open the request, approve. The
 * verified tokens, and the nonce they were checked against.
 */
export async function codeFlowWithOpenIdClient(
  config: oidc.Configuration,
  input: {
    issuer: string;
    redirectUri: string;
    scope: string;
    email: string;
    password: string;
    /** The library pushes the request (RFC 9126) and builds the URL from its request_uri. */
    pushed?: boolean;
    /** The library signs the request as a request object (RFC 9101) with this key. */
    requestKey?: oidc.PrivateKey;
    /** Sender-constrains the tokens with this DPoP handle (RFC 9449). */
    dpop?: oidc.DPoPHandle;
    /** More authorization request parameters (prompt, max_age, acr_values, claims). */
    extra?: Record<string, string>;
    /** Approve as this session instead of signing in with the password after the request. */
    sessionToken?: string;
    /** openid-client checks the id_token's auth_time against it. */
    maxAge?: number;
  },
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  let parameters: Record<string, string> | URLSearchParams = {
    redirect_uri: input.redirectUri,
    scope: input.scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...input.extra,
  };
  if (input.requestKey) parameters = (await oidc.buildAuthorizationUrlWithJAR(config, parameters, input.requestKey)).searchParams;
  const url = input.pushed
    ? await oidc.buildAuthorizationUrlWithPAR(config, parameters, input.dpop ? { DPoP: input.dpop } : undefined)
    : oidc.buildAuthorizationUrl(config, parameters);
  const json = async (path: string, body: object, token?: string) =>
    (await (
      await fetch(`${input.issuer}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, string>;
  const started = (await (await fetch(url)).json()) as { authorization_id: string };
  const session = input.sessionToken ? { session_token: input.sessionToken } : await json('/auth/session', { email: input.email, password: input.password });
  const approved = await json('/oauth/authorize/approve', { authorization_id: started.authorization_id }, session.session_token);
  if (!approved.redirect_to) throw new Error(`approve: ${JSON.stringify(approved)}`);
  const tokens = await oidc.authorizationCodeGrant(
    config,
    new URL(approved.redirect_to!),
    {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
      ...(input.maxAge !== undefined ? { maxAge: input.maxAge } : {}),
    },
    undefined,
    input.dpop ? { DPoP: input.dpop } : undefined,
  );
  return { tokens, nonce, session: session.session_token! };
}
