import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, jest } from '@jest/globals';
import { clientAuthenticationNone, Oauth2Client } from '@openid4vc/oauth2';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { type AdminContext, addCredential, createApiKey, createClient, createOrg, createUser, ensureApprovalEventsEndpoint } from '@svc/admin';
import type { Db } from '@svc/db';
import { freePort, startService, testDatabaseUrl, testDb, testRedisUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

// The two services of OpenID4VCI's authorization code flow, as they are deployed (processes on
// their own ports, linked as `npm start` links them), with the people and clients the wallet test
// uses, and the wallet's side of the flow (libraries this project did not write). The test file
// that calls useWalletServices() gets them; the bindings are live. A test that starts the services
// otherwise (npm start) makes the same people with makeWalletData() and drives a wallet at them
// with receiveFrom().
jest.setTimeout(120_000);
setGlobalConfig({ allowInsecureUrls: true });

export const REDIRECT_URI = 'http://localhost:4003/callback';
export let db: Db;
export let idp: StartedService;
export let issuer: StartedService;
export const person = { email: uniqueEmail('wallet-holder'), password: 'correct horse battery staple' };
export const minor = { email: uniqueEmail('wallet-minor'), password: 'correct horse battery staple' };
export let walletClientId: string;
export let eventsUrl: string;
/** The wallet organization's API key, for the credential issuer's VC API (derive, verify). */
export let apiToken: string;

/**
 * The people the wallet's flow is run for, `person` (of age, a passed KYC check) and `minor`, with
 * their verified data, and an organization with a wallet's public client, in `ctx`'s database.
 */
export async function makeWalletData(ctx: AdminContext) {
  const owner = await createUser(ctx, { email: uniqueEmail('wallet-owner'), password: person.password });
  await createUser(ctx, { ...person, palmVerified: true });
  await createUser(ctx, { ...minor, palmVerified: true });
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  await addCredential(ctx, {
    email: person.email,
    source: 'provider_a',
    claims: JSON.stringify({ date_of_birth: '1990-04-12', kyc_passed: true }),
    expiresAt: inDays(300),
  });
  await addCredential(ctx, {
    email: minor.email,
    source: 'provider_a',
    claims: JSON.stringify({ date_of_birth: `${new Date().getFullYear() - 15}-01-01` }),
    expiresAt: inDays(300),
  });
  const org = await createOrg(ctx, { name: 'Wallet provider', ownerEmail: owner.email });
  const wallet = await createClient(ctx, {
    org: org.id,
    name: 'A wallet',
    redirectUris: [REDIRECT_URI],
    scopes: 'openid identity:read kyc:read',
    public: true,
  });
  return { org, walletClientId: wallet.client_id };
}

/** Starts both services (and makes their people and clients) before the file's tests, stops them after. */
export function useWalletServices(): void {
  beforeAll(async () => {
    db = testDb();
    const ctx = { db, now: () => new Date() };
    const { org, walletClientId: made } = await makeWalletData(ctx);
    walletClientId = made;
    const issuerClient = await createClient(ctx, { org: org.id, name: 'Credential issuer', redirectUris: [REDIRECT_URI], scopes: 'openid' });
    apiToken = (await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue', name: 'VC API' })).key;
    const [idpPort, issuerPort] = [await freePort(), await freePort()];
    const idpUrl = `http://127.0.0.1:${idpPort}`;
    const issuerUrl = `http://127.0.0.1:${issuerPort}`;
    // The issuer hears of revoked approvals as `npm start` wires it: an endpoint of its client's organization.
    const approvalEventsSecret = await ensureApprovalEventsEndpoint(ctx, { org: org.id, issuerUrl });
    eventsUrl = `${issuerUrl}/authorization-server/events`;
    const shared = {
      DATABASE_URL: testDatabaseUrl(),
      ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
      REDIS_KEY_PREFIX: uniqueNamespace('wallet-code'),
    };
    [idp, issuer] = await Promise.all([
      startService('identity-provider', {
        ...shared,
        PORT: String(idpPort),
        PUBLIC_URL: idpUrl,
        IDP_SECRET: randomBytes(32).toString('base64url'),
        CREDENTIAL_ISSUER_URL: issuerUrl,
        CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // One wallet from one address runs every flow of the file within a minute, two authorization
        // requests each (PAR, then the request_uri): more than the 30 a minute a person's wallet needs.
        AUTHORIZE_RATE_LIMIT: '100',
      }),
      startService('credential-issuer', {
        ...shared,
        PORT: String(issuerPort),
        PUBLIC_URL: issuerUrl,
        SIGNING_WORKERS: '1',
        AUTHORIZATION_SERVER_URL: idpUrl,
        AUTHORIZATION_SERVER_CLIENT_ID: issuerClient.client_id,
        AUTHORIZATION_SERVER_CLIENT_SECRET: issuerClient.client_secret!,
        WALLET_ORGANIZATION_ID: org.id,
        AUTHORIZATION_SERVER_WEBHOOK_SECRET: approvalEventsSecret,
        WALLET_APPROVAL_SWEEP_SECONDS: '1',
      }),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([idp, issuer].filter(Boolean).map((s) => s.stop()));
    await db?.$disconnect();
  });
}

interface Holder {
  publicJwk: JWK;
  privateKey: CryptoKey;
}

/** Where a wallet goes: the identity provider, the credential issuer (their public URLs) and its own client at the identity provider. */
export interface WalletTarget {
  idpUrl: string;
  issuerUrl: string;
  walletClientId: string;
}

const callbacks = (holder: Holder, clientId: string) => ({
  hash: (data: Uint8Array, alg: string) => createHash(alg.replace('-', '')).update(data).digest(),
  generateRandom: (length: number) => randomBytes(length),
  signJwt: async (signer: unknown, { header, payload }: { header: unknown; payload: unknown }) => ({
    jwt: await new SignJWT(payload as Record<string, unknown>).setProtectedHeader(header as { alg: string }).sign(holder.privateKey),
    signerJwk: (signer as { publicJwk: JWK }).publicJwk as never,
  }),
  // A public client: it names itself (RFC 6749 §2.3), as a wallet registered at the identity provider does.
  clientAuthentication: clientAuthenticationNone({ clientId }),
});

/** The person signs in and approves what the pushed request asks, through the identity provider's API (as the consent page does). */
async function approve(idpUrl: string, authorizationRequestUrl: string, who: { email: string; password: string }) {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${idpUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const session = (await (await post('/auth/session', who)).json()) as { session_token: string };
  const started = (await (await fetch(authorizationRequestUrl, { headers: { accept: 'application/json' } })).json()) as { authorization_id: string };
  const bearer = { authorization: `Bearer ${session.session_token}` };
  const context = (await (await fetch(`${idpUrl}/oauth/authorize/context?authorization_id=${started.authorization_id}`, { headers: bearer })).json()) as Record<
    string,
    unknown
  >;
  const approved = (await (await post('/oauth/authorize/approve', { authorization_id: started.authorization_id }, bearer)).json()) as { code: string };
  return { code: approved.code, context };
}

type Options = { dpop?: boolean; bind?: 'jwk' | 'did'; byScope?: boolean };

/** The wallet's whole flow at the services useWalletServices() started. */
export const receive = (who: { email: string; password: string }, configurationId = 'age_over_sd_jwt', options: Options = {}) =>
  receiveFrom({ idpUrl: idp.url, issuerUrl: issuer.url, walletClientId }, who, configurationId, options);

/** The wallet's whole flow, from the issuer's URL to the credential: authorization code with PKCE through PAR, then nonce, proof, credential. */
export async function receiveFrom(target: WalletTarget, who: { email: string; password: string }, configurationId = 'age_over_sd_jwt', options: Options = {}) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const holder = { publicJwk: await exportJWK(publicKey), privateKey };
  const wallet = new Openid4vciClient({ callbacks: callbacks(holder, target.walletClientId) });
  const oauth = new Oauth2Client({ callbacks: callbacks(holder, target.walletClientId) });
  const issuerMetadata = await wallet.resolveIssuerMetadata(target.issuerUrl);
  const authorizationServerMetadata = issuerMetadata.authorizationServers.find((as) => as.issuer === target.idpUrl)!;
  const { authorizationRequestUrl, pkce } = await oauth.createAuthorizationRequestUrl({
    authorizationServerMetadata,
    clientId: target.walletClientId,
    redirectUri: REDIRECT_URI,
    resource: target.issuerUrl,
    // HAIP 1.0 wallets ask by the configuration's scope; others by authorization_details.
    ...(options.byScope
      ? { scope: configurationId }
      : { additionalRequestPayload: { authorization_details: [{ type: 'openid_credential', credential_configuration_id: configurationId }] } }),
  });
  const { code, context } = await approve(target.idpUrl, authorizationRequestUrl, who);
  const signer = { method: 'jwk' as const, alg: 'ES256', publicJwk: holder.publicJwk as never };
  const { accessTokenResponse, dpop } = await oauth.retrieveAuthorizationCodeAccessToken({
    authorizationServerMetadata,
    authorizationCode: code,
    pkceCodeVerifier: pkce!.codeVerifier,
    redirectUri: REDIRECT_URI,
    resource: target.issuerUrl,
    ...(options.dpop ? { dpop: { signer } } : {}),
  });
  const { c_nonce } = await wallet.requestNonce({ issuerMetadata });
  // A W3C credential (ldp_vc) is about the holder's DID: the proof names the key by its did:jwk.
  const did = `did:jwk:${Buffer.from(JSON.stringify(holder.publicJwk)).toString('base64url')}`;
  const { jwt } = await wallet.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: configurationId,
    nonce: c_nonce,
    signer: options.bind === 'did' ? { method: 'did', alg: 'ES256', didUrl: `${did}#0` } : signer,
  });
  const credentialRequest = (body: Record<string, unknown>) =>
    fetch(`${target.issuerUrl}/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessTokenResponse.access_token}` },
      body: JSON.stringify(body),
    });
  /** The credential, asked for with the wallet library as the token response allows (no DPoP). */
  const retrieve = () =>
    wallet.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: configurationId,
      proofs: { jwt: [jwt] },
    });
  return { wallet, issuerMetadata, accessTokenResponse, dpop, context, jwt, holder, did, credentialRequest, retrieve };
}

/** How many requests the identity provider's introspection endpoint has answered (its /metrics). */
export const introspections = async () => {
  const metrics = await (await fetch(`${idp.url}/metrics`)).text();
  return [...metrics.matchAll(/^http_requests_total\{[^}]*route="\/oauth\/introspect"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
};
