// The first hour in the sandbox, with the SDK: a developer who has never used the service signs
// up, registers an app and makes a test user through the sandbox's API (no operator, no admin
// CLI), then signs the test user in with the SDK and reads presets; a preset error comes back as
// the SDK's typed error; and the sandbox's credentials are refused by production, by name.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  freePort,
  signUpThroughOutbox,
  startService,
  testDatabaseUrl,
  testRedisUrl,
  testSandboxDatabaseUrl,
  uniqueEmail,
  uniqueNamespace,
  type StartedService,
} from '@svc/testkit';
import { createPkce, IdentityClient, OAuthApiError, PresetApiError, randomState } from '../src/index.js';

const CALLBACK = 'https://app.example/callback';
const PASSWORD = 'a long enough password';
let sandbox: StartedService;
let production: StartedService;

beforeAll(async () => {
  const [sandboxPort, productionPort] = [await freePort(), await freePort()];
  const [sandboxUrl, productionUrl] = [`http://127.0.0.1:${sandboxPort}`, `http://127.0.0.1:${productionPort}`];
  const shared = { ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}), REDIS_KEY_PREFIX: uniqueNamespace('sdk-sandbox') };
  [sandbox, production] = await Promise.all([
    startService('identity-provider', {
      ...shared,
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: await testSandboxDatabaseUrl(),
      PORT: String(sandboxPort),
      PUBLIC_URL: sandboxUrl,
      PRODUCTION_BASE_URL: productionUrl,
      IDP_SECRET: randomBytes(32).toString('base64url'),
    }),
    startService('identity-provider', {
      ...shared,
      DATABASE_URL: testDatabaseUrl(),
      PORT: String(productionPort),
      PUBLIC_URL: productionUrl,
      SANDBOX_BASE_URL: sandboxUrl,
      IDP_SECRET: randomBytes(32).toString('base64url'),
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([sandbox?.stop(), production?.stop()]);
});

async function call(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body as Record<string, string>;
}

describe('a new developer in the sandbox, with the SDK', () => {
  it('signs up, registers an app, makes a test user, signs them in with the SDK and reads presets; production refuses the sandbox’s credentials', async () => {
    const email = uniqueEmail('newcomer');
    // Signing up mails a link (to the sandbox's local outbox here), which makes the account when followed.
    await signUpThroughOutbox(sandbox.url, { email, password: PASSWORD, organization_name: 'Newcomer Ltd' });
    const session = (await call('/auth/session', { body: { email, password: PASSWORD } })).session_token!;
    const app = await call('/v2/developer/applications', {
      token: session,
      body: { name: 'Newcomer app', redirect_uris: [CALLBACK], scopes: ['openid', 'identity:read', 'kyc:read'], type: 'confidential' },
    });
    const person = await call('/v2/sandbox/users', {
      token: session,
      body: { palm_verified: true, presets: { date_of_birth: '1990-04-12', nationality: 'DE', kyc_passed: true }, statuses: { kyc_passed: 'pending' } },
    });

    // The SDK, pointed at the sandbox: nothing else differs from production.
    const sdk = new IdentityClient({ issuer: sandbox.url, clientId: app.client_id!, clientSecret: app.client_secret! });
    const pkce = createPkce();
    const state = randomState();
    const url = sdk.authorizationUrl({ redirectUri: CALLBACK, scope: ['openid', 'identity:read', 'kyc:read'], state, codeChallenge: pkce.challenge });
    // The test user's part, as the hosted pages would do it: sign in, open the request, approve.
    const personSession = (await call('/auth/session', { body: { email: person.email, password: person.password } })).session_token!;
    const started = (await (await fetch(url, { headers: { accept: 'application/json' } })).json()) as { authorization_id: string };
    const approved = await call('/oauth/authorize/approve', { token: personSession, body: { authorization_id: started.authorization_id } });
    const { code } = sdk.parseCallback(approved.redirect_to!, { state });
    const tokens = await sdk.exchangeCode({ code, redirectUri: CALLBACK, codeVerifier: pkce.verifier });
    expect(tokens.refresh_token).toMatch(/^sbx_svcrt_/);
    expect(await sdk.preset(tokens.access_token, 'age_over_18')).toMatchObject({ preset: 'age_over_18', value: true, status: 'valid' });
    expect((await sdk.presets(tokens.access_token, ['nationality'])).results[0]).toMatchObject({ value: 'DE' });
    const pending = await sdk.preset(tokens.access_token, 'kyc_passed').catch((err: unknown) => err);
    expect(pending).toBeInstanceOf(PresetApiError);
    expect((pending as PresetApiError).code).toBe('E4004');

    // Moving to production is the base URL and the credentials: the sandbox's are refused there, by name.
    const wrongBase = new IdentityClient({ issuer: production.url, clientId: app.client_id!, clientSecret: app.client_secret! });
    const refused = await wrongBase.refresh(tokens.refresh_token!).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OAuthApiError);
    expect((refused as OAuthApiError).message).toContain(`belongs to the sandbox: send it to ${sandbox.url}`);
    const data = await wrongBase.preset(tokens.access_token, 'age_over_18').catch((err: unknown) => err);
    expect((data as PresetApiError).code).toBe('E4042');
    expect((data as PresetApiError).message).toContain('belongs to the sandbox');
  });
});
