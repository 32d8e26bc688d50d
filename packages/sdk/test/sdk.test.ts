import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { addCredential, createAction, createApiKey, createClient, createOrg, createUser, type AdminContext } from '@svc/admin';
import type { Db } from '@svc/db';
import { freePort, startService, testDb, testDatabaseUrl, testRedisUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import {
  createPkce,
  CredentialIssuerClient,
  IdentityClient,
  InsufficientUserAuthenticationError,
  MaxVerificationsReachedError,
  NotUniqueHumanError,
  OAuthApiError,
  PresetApiError,
  randomState,
  SvcApiError,
  ValidationApiError,
  WalletVerifyClient,
} from '../src/index.js';
// The credential issuer's own test wallets, made of outside libraries: one takes an offer (OpenID4VCI), one answers a request (OpenID4VP).
import { newHolder, receive } from '../../../apps/credential-issuer/test/openid4vci/wallet.js';
import {
  answer,
  credentialQuery,
  dcApiAnswer,
  presentSdJwtVc,
  resolveDcApiRequest,
  resolveRequest,
} from '../../../apps/credential-issuer/test/openid4vp/library-wallet.js';

const REDIRECT = 'https://app.example/callback';
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

let db: Db;
let idp: StartedService;
let verify: StartedService;
let issuer: StartedService;
let ctx: AdminContext;
const shared = () => ({ DATABASE_URL: testDatabaseUrl(), ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}), REDIS_KEY_PREFIX: uniqueNamespace('sdk') });

beforeAll(async () => {
  db = testDb();
  ctx = { db, now: () => new Date() };
  const port = await freePort();
  [idp, verify, issuer] = await Promise.all([
    startService('identity-provider', {
      ...shared(),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      IDP_SECRET: 'sdk-test-secret-0123456789abcdefghij',
    }),
    startService('wallet-verify', shared()),
    startService('credential-issuer', { ...shared(), SIGNING_WORKERS: '1' }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([idp?.stop(), verify?.stop(), issuer?.stop()]);
  await db.$disconnect();
});

async function userWithClient() {
  const email = uniqueEmail('sdk');
  const password = 'correct horse battery';
  await createUser(ctx, { email, password, palmVerified: true, wallets: [] });
  await addCredential(ctx, { email, source: 'kyc_provider', claims: JSON.stringify({ date_of_birth: '1990-04-12', nationality: 'DE', kyc_passed: true }) });
  const org = await createOrg(ctx, { name: 'SDK Org', ownerEmail: email });
  const client = await createClient(ctx, { org: org.id, name: 'SDK App', redirectUris: [REDIRECT], scopes: 'openid identity:read kyc:read' });
  const sdk = new IdentityClient({ issuer: idp.url, clientId: client.client_id, clientSecret: client.client_secret! });
  return { email, password, sdk, client, org };
}

/** What the hosted pages do for a browser, done through the API: sign in and approve. */
async function consent(authorizationUrl: string, email: string, password: string): Promise<string> {
  const json = async (res: Promise<Response>) => (await (await res).json()) as Record<string, string>;
  const session = await json(
    fetch(`${idp.url}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }),
  );
  const started = await json(fetch(authorizationUrl, { headers: { accept: 'application/json' } }));
  const approved = await json(
    fetch(`${idp.url}/oauth/authorize/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
      body: JSON.stringify({ authorization_id: started.authorization_id }),
    }),
  );
  return approved.redirect_to!;
}

describe('IdentityClient', () => {
  it('surfaces a step-up challenge as a typed error with the acr_values and max_age to send', async () => {
    const email = uniqueEmail('sdk-step-up');
    const password = 'correct horse battery';
    await createUser(ctx, { email, password, palmVerified: true, wallets: [] });
    await addCredential(ctx, { email, source: 'kyc_provider', claims: JSON.stringify({ date_of_birth: '1990-04-12' }) });
    const org = await createOrg(ctx, { name: 'Step-up Org', ownerEmail: email });
    const client = await createClient(ctx, {
      org: org.id,
      name: 'Step-up App',
      redirectUris: [REDIRECT],
      scopes: 'openid identity:read identity:date_of_birth',
      signInPolicy: { sensitive_data_acr: 'phr', sensitive_data_max_age: 600 },
    });
    const sdk = new IdentityClient({ issuer: idp.url, clientId: client.client_id, clientSecret: client.client_secret! });
    const pkce = createPkce();
    const state = randomState();
    const url = sdk.authorizationUrl({ redirectUri: REDIRECT, scope: 'openid identity:date_of_birth', state, codeChallenge: pkce.challenge, maxAge: 900 });
    expect(new URL(url).searchParams.get('max_age')).toBe('900');
    const { code } = sdk.parseCallback(await consent(url, email, password), { state });
    const tokens = await sdk.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce.verifier });
    const refused = await sdk.preset(tokens.access_token, 'date_of_birth').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsufficientUserAuthenticationError);
    expect(refused).toMatchObject({ status: 401, code: 'E4011', acrValues: 'phr', maxAge: 600 });
    const again = sdk.authorizationUrl({
      redirectUri: REDIRECT,
      scope: 'openid identity:date_of_birth',
      state,
      codeChallenge: pkce.challenge,
      acrValues: (refused as InsufficientUserAuthenticationError).acrValues,
      maxAge: (refused as InsufficientUserAuthenticationError).maxAge,
    });
    expect(Object.fromEntries(new URL(again).searchParams)).toMatchObject({ acr_values: 'phr', max_age: '600' });
  });

  it('runs PKCE, the callback, the code exchange, user info, presets, a query, refresh and revocation', async () => {
    const { email, password, sdk } = await userWithClient();
    const pkce = createPkce();
    const state = randomState();
    const url = sdk.authorizationUrl({
      redirectUri: REDIRECT,
      scope: ['openid', 'identity:read', 'kyc:read'],
      state,
      codeChallenge: pkce.challenge,
      locale: 'de',
    });
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await consent(url, email, password);
    expect(() => sdk.parseCallback(callback, { state: 'another' })).toThrow(/state/);
    const { code } = sdk.parseCallback(callback, { state });

    const tokens = await sdk.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce.verifier });
    expect(tokens).toMatchObject({ token_type: 'Bearer', granted_scopes: ['identity:read', 'kyc:read', 'openid'] });

    expect(await sdk.userInfo(tokens.access_token)).toMatchObject({ sub: tokens.app_scoped_user_id });
    expect(await sdk.preset(tokens.access_token, 'age_over_18')).toMatchObject({ value: true, status: 'valid' });
    const batch = await sdk.presets(tokens.access_token, ['nationality', 'date_of_birth']);
    expect(batch.results.map((r) => r.value)).toEqual(['DE']);
    expect(batch.errors.map((e) => e.error.error_code)).toEqual(['E4003']);
    const refused = await sdk.preset(tokens.access_token, 'date_of_birth').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PresetApiError);
    expect(refused).toMatchObject({ status: 403, code: 'E4003', context: { required_scope: 'identity:date_of_birth' } });
    const answer = await sdk.evaluate(tokens.access_token, {
      policy: {
        allOf: [
          { claim: 'age', operator: '>=', value: 18 },
          { claim: 'kyc_passed', operator: '==', value: true },
        ],
      },
    });
    expect(answer).toMatchObject({ type: 'predicate', passed: true });
    const malformed = await sdk.evaluate(tokens.access_token, { check: { claim: 'age', operator: '≥', value: 18 } }).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ValidationApiError);
    expect((malformed as ValidationApiError).details[0]!.field).toBe('body.query.check.operator');

    const refreshed = await sdk.refresh(tokens.refresh_token!, { scope: 'openid identity:read' });
    expect(refreshed.granted_scopes).toEqual(['identity:read', 'openid']);
    expect(await sdk.revoke({ token: refreshed.access_token })).toMatchObject({ revoked: true, revoked_count: 1 });
    const revoked = await sdk.preset(refreshed.access_token, 'age').catch((e: unknown) => e);
    expect(revoked).toMatchObject({ code: 'E4042', needsNewToken: true });
    // A replayed code is refused, and (RFC 9700) takes every token issued from it along.
    await expect(sdk.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce.verifier })).rejects.toMatchObject({
      name: 'OAuthApiError',
      error: 'invalid_grant',
    });
    await expect(sdk.userInfo(tokens.access_token)).rejects.toMatchObject({ status: 401, error: 'invalid_token' });
  });

  it('issues user tokens, lists authorization changes and reads discovery', async () => {
    const { email, password, sdk } = await userWithClient();
    const pkce = createPkce();
    const state = randomState();
    await consent(sdk.authorizationUrl({ redirectUri: REDIRECT, scope: 'openid identity:read', state, codeChallenge: pkce.challenge }), email, password);
    const token = await sdk.userToken({ email });
    expect(token.scopes).toEqual(['identity:read', 'openid']);
    expect((await sdk.authorizations({ status: 'active' })).items).toHaveLength(1);
    const { openid, service } = await sdk.discovery();
    expect(openid.code_challenge_methods_supported).toEqual(['S256']);
    expect(service.presets_available).toHaveLength(42);
    expect(await sdk.listPresets()).toHaveLength(42);
    const wrongSecret = new IdentityClient({ issuer: idp.url, clientId: 'svcc_nope', clientSecret: 'nope' });
    await expect(wrongSecret.userToken({ email })).rejects.toBeInstanceOf(OAuthApiError);
  });
});

describe('IdentityClient: one person, one action', () => {
  /** The person's access token (scope openid), as the app holds it after the code exchange. */
  async function signedIn(sdk: IdentityClient, email: string, password: string): Promise<string> {
    const pkce = createPkce();
    const state = randomState();
    const callback = await consent(sdk.authorizationUrl({ redirectUri: REDIRECT, scope: 'openid', state, codeChallenge: pkce.challenge }), email, password);
    const { code } = sdk.parseCallback(callback, { state });
    return (await sdk.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce.verifier })).access_token;
  }

  it('proves an action, refuses the second proof with the same nullifier, and checks the nullifier with client credentials', async () => {
    const { email, password, sdk, client, org } = await userWithClient();
    await createAction(ctx, { org: org.id, action: 'vote.2026' });
    const token = await signedIn(sdk, email, password);

    const proof = await sdk.proveAction(token, 'vote.2026', { signal: 'candidate-b' });
    expect(proof).toEqual({
      action: 'vote.2026',
      nullifier: expect.stringMatching(/^nul_[A-Za-z0-9_-]{43}$/),
      signal_hash: createHash('sha256').update('candidate-b').digest('hex'),
      count: 1,
      max_per_person: 1,
      proved_at: expect.any(String),
    });
    const again = await sdk.proveAction(token, 'vote.2026').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(MaxVerificationsReachedError);
    expect(again).toBeInstanceOf(SvcApiError);
    // Typed: the compiler knows the refusal carries the nullifier.
    const counted: string = (again as MaxVerificationsReachedError).nullifier;
    expect(counted).toBe(proof.nullifier);
    expect(again).toMatchObject({ status: 409, error: 'max_verifications_reached' });

    expect(await sdk.checkActionProof('vote.2026', proof.nullifier)).toEqual({
      nullifier: proof.nullifier,
      count: 1,
      proved_at: proof.proved_at,
      signal_hash: proof.signal_hash,
    });
    await expect(sdk.checkActionProof('vote.2026', `nul_${'A'.repeat(43)}`)).rejects.toMatchObject({ status: 404, error: 'proof_not_found' });
    await expect(sdk.proveAction(token, 'no-such-action')).rejects.toMatchObject({ status: 404, error: 'action_not_found' });
    // Only the client's secret reads counts: a client without one is stopped before it asks.
    await expect(new IdentityClient({ issuer: idp.url, clientId: client.client_id }).checkActionProof('vote.2026', proof.nullifier)).rejects.toThrow(
      /needs a confidential client/,
    );
    await expect(
      new IdentityClient({ issuer: idp.url, clientId: client.client_id, clientSecret: 'wrong' }).checkActionProof('vote.2026', proof.nullifier),
    ).rejects.toBeInstanceOf(OAuthApiError);
  });

  it('refuses a person who is not palm-verified with a typed error, where the action counts unique humans only', async () => {
    const { sdk, org } = await userWithClient();
    await createAction(ctx, { org: org.id, action: 'humans-only' });
    await createAction(ctx, { org: org.id, action: 'anyone', requiresPalmVerification: false });
    const email = uniqueEmail('unverified');
    await createUser(ctx, { email, password: 'correct horse battery', palmVerified: false, wallets: [] });
    const token = await signedIn(sdk, email, 'correct horse battery');
    const refused = await sdk.proveAction(token, 'humans-only').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotUniqueHumanError);
    expect(refused).toMatchObject({ status: 403, error: 'not_unique_human' });
    expect(await sdk.proveAction(token, 'anyone')).toMatchObject({ action: 'anyone', count: 1 });
  });
});

describe('WalletVerifyClient', () => {
  it('answers the verdict with the key’s rate-limit state, and typed errors', async () => {
    const owner = await createUser(ctx, { email: uniqueEmail('wallet'), password: 'correct horse', palmVerified: true, wallets: [] });
    await db.wallet.deleteMany({ where: { address: WALLET } });
    await db.wallet.create({ data: { userId: owner.id, address: WALLET, isPrimary: true } });
    const org = await createOrg(ctx, { name: 'Verifier', ownerEmail: owner.email });
    const key = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify', hourlyLimit: 50 });
    const client = new WalletVerifyClient({ baseUrl: verify.url, apiKey: key.key });
    const verdict = await client.verify(WALLET);
    expect(verdict).toEqual({
      wallet_address: WALLET,
      is_human: true,
      // The user as this organization knows them (pairwise), never the user's own id.
      user_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      rateLimit: { limit: 50, remaining: 49, reset: expect.any(Number) },
    });
    expect(verdict.user_id).not.toBe(owner.id);
    await expect(client.verify(WALLET.toLowerCase())).rejects.toBeInstanceOf(ValidationApiError);
    await expect(client.verify('0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB')).rejects.toMatchObject({ status: 404, error: 'Wallet not found' });
    await expect(new WalletVerifyClient({ baseUrl: verify.url, apiKey: 'svck_wrong' }).verify(WALLET)).rejects.toMatchObject({
      status: 401,
      error: 'Invalid / disabled API key',
    });
  });
});

describe('CredentialIssuerClient', () => {
  it('issues, verifies, revokes, lists and reads status', async () => {
    const owner = await createUser(ctx, { email: uniqueEmail('issuer'), password: 'correct horse' });
    const org = await createOrg(ctx, { name: 'Issuer Org', ownerEmail: owner.email });
    const key = await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue' });
    const client = new CredentialIssuerClient({ baseUrl: issuer.url, apiToken: key.key, timeoutMs: 60_000 });
    const credential = await client.issue({ subjectAddress: WALLET, claims: { kyc_passed: true, level: 2 } });
    expect(credential.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'bbs-2023' });
    expect(await client.verify(credential)).toEqual({ verified: true, checks: ['proof', 'validity', 'status'], errors: [] });
    expect(await client.verifyCredential(credential)).toEqual({ verified: true, checks: ['proof', 'validity', 'status'], warnings: [], errors: [] });
    const derived = await client.derive(credential, ['/credentialSubject/level']);
    expect(derived.credentialSubject).toEqual({ id: `did:ethr:${WALLET}`, level: 2 });
    expect((await client.verifyCredential(derived, { checks: ['proof'] })).verified).toBe(true);
    // An unsigned presentation has no holder proof: a verdict, not an exception.
    const presented = await client.verifyPresentation(
      { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], verifiableCredential: [derived] },
      { challenge: 'c-1' },
    );
    expect(presented).toMatchObject({ verified: false, credentialResults: [{ verified: true }] });
    expect(await client.revoke(credential.id!)).toMatchObject({ revoked: true, credential_id: credential.id });
    expect(await client.status(credential.id!)).toMatchObject({ revoked: true });
    expect((await client.verify(credential)).verified).toBe(false);
    expect(await client.verifyCredential(credential)).toMatchObject({
      verified: false,
      errors: [expect.objectContaining({ detail: 'the credential has been revoked' })],
    });
    expect((await client.list({ subjectAddress: WALLET })).items.map((i) => i.id)).toEqual([credential.id]);

    // A VC API credential names its bit in a public status list; revoking it sets the bit.
    const did = credential.issuer as string;
    const listed = await client.issueCredential(
      { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: did, credentialSubject: { id: `did:ethr:${WALLET}` } },
      { credentialStatus: { type: 'BitstringStatusListEntry' } },
    );
    const entry = [listed.credentialStatus].flat()[0]!;
    expect(entry.type).toBe('BitstringStatusListEntry');
    expect((await client.statusList(entry.statusListCredential!)).isSet(Number(entry.statusListIndex))).toBe(false);
    await client.revoke(listed.id!);
    const after = await client.statusList(entry.statusListCredential!);
    expect(after.isSet(Number(entry.statusListIndex))).toBe(true);
    expect(after.credential).toMatchObject({ type: ['VerifiableCredential', 'BitstringStatusListCredential'], issuer: did });
    await expect(client.issue({ subjectAddress: WALLET, claims: { id: 'reserved' } })).rejects.toBeInstanceOf(ValidationApiError);

    // An offer for a wallet: the link a QR code carries, the offer behind it, a code for the person.
    const offer = await client.offer({ configurationId: 'age_over_sd_jwt', claims: { age_over_18: true }, subjectAddress: WALLET, txCode: true });
    expect(offer.offer_link).toBe(`openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offer.credential_offer_uri)}`);
    expect(offer.tx_code).toMatch(/^\d{6}$/);
    expect(await (await fetch(offer.credential_offer_uri)).json()).toEqual(offer.credential_offer);
    await expect(client.offer({ configurationId: 'age_over_sd_jwt', claims: { date_of_birth: '1990-01-01' } })).rejects.toBeInstanceOf(ValidationApiError);
    await expect(new CredentialIssuerClient({ baseUrl: issuer.url, apiToken: 'svck_wrong' }).list()).rejects.toBeInstanceOf(SvcApiError);
  }, 60_000);

  it('asks a wallet for a preset and reads the result, over a link, on the person’s device and over the Digital Credentials API', async () => {
    const owner = await createUser(ctx, { email: uniqueEmail('verifier'), password: 'correct horse' });
    const org = await createOrg(ctx, { name: 'Verifier Org', ownerEmail: owner.email });
    const key = await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue,presentations:verify', burstLimit: 100 });
    const client = new CredentialIssuerClient({ baseUrl: issuer.url, apiToken: key.key, timeoutMs: 60_000 });
    // A person whose wallet took this issuer's age credential.
    const holder = await newHolder('ES256');
    const offer = await client.offer({ configurationId: 'age_over_sd_jwt', claims: { age_over_18: true }, txCode: true });
    const { credential } = await receive(holder, offer.offer_link, offer.tx_code);
    const privateJwk = await crypto.subtle.exportKey('jwk', holder.privateKey);
    const present = async (wallet: Awaited<ReturnType<typeof resolveRequest>>, options: { nonce?: string } = {}) => ({
      [credentialQuery(wallet, 'dc+sd-jwt').id]: [
        await presentSdJwtVc(credential, privateJwk, wallet, { queryId: credentialQuery(wallet, 'dc+sd-jwt').id, ...options }),
      ],
    });

    // A QR code: the wallet answers the service directly, the integrator reads the result.
    const asked = await client.requestPresentation({ presets: ['age_over_18'], formats: ['dc+sd-jwt'], purpose: 'Age check' });
    expect(asked).toMatchObject({ status: 'pending', request_link: expect.stringMatching(/^openid4vp:\/\/\?client_id=/) });
    expect(asked.dc_api).toBeUndefined();
    expect(await client.presentationResult(asked.id)).toEqual({ id: asked.id, status: 'pending', expires_at: asked.expires_at });
    const wallet = await resolveRequest(asked.request_link);
    expect((await answer(wallet, await present(wallet))).status).toBe(200);
    const result = await client.presentationResult(asked.id);
    if (result.status !== 'verified') throw new Error(`not verified: ${JSON.stringify(result)}`);
    // Typed: the compiler knows age_over_18 is a boolean here.
    const over18: boolean | undefined = result.presets?.age_over_18?.value;
    expect(over18).toBe(true);
    expect(result.presets?.age_over_18).toMatchObject({ format: 'dc+sd-jwt', issuer: offer.credential_offer.credential_issuer });

    // On the person's device: the wallet is sent back with a code, and the result is read with it.
    const sameDevice = await client.requestPresentation({ presets: ['age_over_18'], formats: ['dc+sd-jwt'], redirectUri: 'https://shop.example/done' });
    const phone = await resolveRequest(sameDevice.request_link);
    const back = (await answer(phone, await present(phone))).body as { redirect_uri: string };
    const responseCode = new URL(back.redirect_uri).searchParams.get('response_code')!;
    await expect(client.presentationResult(sameDevice.id)).rejects.toBeInstanceOf(ValidationApiError);
    expect(await client.presentationResult(sameDevice.id, { responseCode })).toMatchObject({ status: 'verified', presets: { age_over_18: { value: true } } });

    // The Digital Credentials API: the page's answer relayed with the origin the backend knows.
    const origin = 'https://shop.example';
    const dc = await client.requestPresentation({ presets: ['age_over_18'], responseMode: 'dc_api.jwt', expectedOrigins: [origin] });
    expect(dc.dc_api).toMatchObject({ protocol: 'openid4vp-v1-signed', data: { request: expect.any(String) } });
    const page = await resolveDcApiRequest(dc.dc_api!.data, origin);
    const data = await dcApiAnswer(page, await present(page));
    const elsewhere = await client.relayDcApiResponse(dc.id, { response: data, origin: 'https://elsewhere.example' }).catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(SvcApiError);
    expect(elsewhere).toMatchObject({ status: 400, error: 'unexpected_origin' });
    expect(await client.relayDcApiResponse(dc.id, { response: data, origin })).toMatchObject({ status: 'verified', presets: { age_over_18: { value: true } } });
    await expect(client.relayDcApiResponse(dc.id, { response: data, origin })).rejects.toMatchObject({ status: 400, error: 'invalid_request' });

    // A failed check is a verdict that names it, not an exception.
    const again = await client.requestPresentation({ presets: ['age_over_18'], expectedOrigins: [origin] });
    const wrongNonce = await resolveDcApiRequest(again.dc_api!.data, origin);
    const failed = await client.relayDcApiResponse(again.id, {
      response: await dcApiAnswer(wrongNonce, await present(wrongNonce, { nonce: 'another' })),
      origin,
    });
    // Refused, and still open for the wallet's next answer (the third refusal closes it).
    expect(failed).toMatchObject({ status: 'pending', errors: [{ check: 'nonce' }] });
    expect(await client.presentationResult(again.id)).toEqual(failed);
    await expect(client.requestPresentation({ presets: ['age_over_18'], responseMode: 'dc_api.jwt' })).rejects.toBeInstanceOf(ValidationApiError);
  }, 60_000);
});
