// OpenID Connect assurance and RFC 9470 step-up, driven by openid-client against the running
// provider: prompt, max_age, acr_values, an essential acr in claims, acr/amr/auth_time in the
// tokens, and the insufficient_user_authentication challenge of a sensitive read.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { addCredential, createClient, createOrg, createUser } from '@svc/admin';
import type { SignInPolicy } from '@svc/schemas';
import { sha256Hex } from '@svc/secrets';
import { uniqueEmail } from '@svc/testkit';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { codeFlowWithOpenIdClient, useRunningIdp } from './server.js';

const suite = useRunningIdp();
const PASSWORD = 'correct horse battery';
const SCOPE = 'openid identity:read identity:date_of_birth';

/** A person with a verified date of birth (a preset of high sensitivity), and a client of their organization. */
async function arranged(label: string, policy: SignInPolicy = {}) {
  const ctx = { db: suite.db, now: () => new Date() };
  const user = await createUser(ctx, { email: uniqueEmail(label), password: PASSWORD, palmVerified: true });
  await addCredential(ctx, { email: user.email, source: 'kyc_provider', claims: JSON.stringify({ date_of_birth: '1990-04-12' }) });
  const org = await createOrg(ctx, { name: `${label} Org`, ownerEmail: user.email });
  const registered = await createClient(ctx, { org: org.id, name: `${label} App`, redirectUris: [suite.callback.url], scopes: SCOPE, signInPolicy: policy });
  const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, registered.client_secret!, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  return {
    user,
    config,
    flow: (more: Partial<Parameters<typeof codeFlowWithOpenIdClient>[1]> = {}) =>
      codeFlowWithOpenIdClient(config, {
        issuer: suite.idp.issuer,
        redirectUri: suite.callback.url,
        scope: SCOPE,
        email: user.email,
        password: PASSWORD,
        ...more,
      }),
  };
}

/**
 * A session as a passkey sign-in leaves it (acr phr), `signedInSecondsAgo` old. The passkey tests
 * sign in with a real (virtual) authenticator; here only what the session records matters.
 */
async function passkeySession(userId: string, signedInSecondsAgo = 0): Promise<string> {
  const token = `svcsess_${randomBytes(32).toString('base64url')}`;
  const at = new Date(Date.now() - signedInSecondsAgo * 1000);
  await suite.db.session.create({
    data: { userId, tokenHash: sha256Hex(token), acr: 'phr', amr: ['swk', 'user'], createdAt: at, expiresAt: new Date(Date.now() + 3_600_000) },
  });
  return token;
}

/** Where /oauth/authorize sends a browser (prompt=none answers the client at once). */
async function authorizeRedirect(config: oidc.Configuration, params: Record<string, string>, cookie?: string) {
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: suite.callback.url,
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: 'st',
    ...params,
  });
  const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
  return new URL(res.headers.get('location')!, suite.idp.issuer);
}

describe('assurance in OpenID Connect, with openid-client', () => {
  it('announces the acr values, prompt values and the claims parameter', async () => {
    const { config } = await arranged('assurance-discovery');
    expect(config.serverMetadata()).toMatchObject({
      acr_values_supported: ['pwd', 'phr', 'phrh'],
      prompt_values_supported: ['none', 'login', 'consent'],
      claims_parameter_supported: true,
    });
    expect(config.serverMetadata().claims_supported).toEqual(expect.arrayContaining(['acr', 'amr', 'auth_time']));
  });

  it('says how the person signed in: acr, amr and auth_time in the id_token and the access token', async () => {
    const { config, flow, user } = await arranged('assurance-claims');
    const before = Math.floor(Date.now() / 1000) - 1;
    const { tokens } = await flow({ maxAge: 300, extra: { max_age: '300' } });
    expect(tokens.claims()).toMatchObject({ acr: 'pwd', amr: ['pwd'] });
    expect(tokens.claims()!.auth_time).toBeGreaterThanOrEqual(before);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ acr: 'pwd', amr: ['pwd'], auth_time: tokens.claims()!.auth_time });

    const passkey = await flow({ sessionToken: await passkeySession(user.id) });
    expect(passkey.tokens.claims()).toMatchObject({ acr: 'phr', amr: ['swk', 'user'] });
    // A refreshed token says the same: it is the same sign-in.
    const refreshed = await oidc.refreshTokenGrant(config, passkey.tokens.refresh_token!);
    expect(refreshed.claims()).toMatchObject({ acr: 'phr', amr: ['swk', 'user'], auth_time: passkey.tokens.claims()!.auth_time });
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ acr: 'phr' });
  });

  it('acr_values is a wish: a password sign-in is still answered, and says pwd; a passkey session meets it', async () => {
    const { flow, user } = await arranged('assurance-voluntary');
    const { tokens } = await flow({ extra: { acr_values: 'phr' } });
    expect(tokens.claims()!.acr).toBe('pwd');
    const passkey = await flow({ extra: { acr_values: 'phr phrh' }, sessionToken: await passkeySession(user.id, 3600) });
    expect(passkey.tokens.claims()!.acr).toBe('phr');
  });

  it('an essential acr is met, or the request ends with unmet_authentication_requirements', async () => {
    const { config, flow, user } = await arranged('assurance-essential');
    const claims = JSON.stringify({ id_token: { acr: { essential: true, values: ['phr', 'phrh'] } } });
    const met = await flow({ extra: { claims }, sessionToken: await passkeySession(user.id) });
    expect(met.tokens.claims()).toMatchObject({ acr: 'phr' });

    // A password sign-in after the request cannot approve it, and the consent page ends it.
    const password = await fetch(`${suite.idp.issuer}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    const { session_token: session } = (await password.json()) as { session_token: string };
    const pending = await authorizeRedirect(config, { claims, nonce: 'n' });
    const authorizationId = pending.searchParams.get('authorization_id')!;
    const approve = await fetch(`${suite.idp.issuer}/oauth/authorize/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      body: JSON.stringify({ authorization_id: authorizationId }),
    });
    expect(approve.status).toBe(403);
    expect(await approve.json()).toMatchObject({ error: 'login_required' });
    // The session above was made before this request: the page asks for a passkey first.
    const page = await fetch(pending, { headers: { cookie: `svc_session=${session}`, accept: 'text/html' }, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('asks you to sign in with a passkey');

    // Signed in with a password again, after being asked: the request ends, and the client hears why.
    const again = await fetch(`${suite.idp.issuer}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    const fresh = ((await again.json()) as { session_token: string }).session_token;
    const ended = await fetch(pending, { headers: { cookie: `svc_session=${fresh}`, accept: 'text/html' }, redirect: 'manual' });
    expect(ended.status).toBe(303);
    const back = new URL(ended.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(suite.callback.url);
    expect(back.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: authorizationId } })).status).toBe('denied');

    // An acr nobody can meet here is refused at once.
    const never = await authorizeRedirect(config, { claims: JSON.stringify({ id_token: { acr: { essential: true, value: 'urn:example:loa:4' } } }) });
    expect(never.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect(never.searchParams.get('state')).toBe('st');
  });

  it('prompt=none answers at once: login_required, consent_required, or a code for a grant already given', async () => {
    const { config, flow, user } = await arranged('assurance-none');
    expect((await authorizeRedirect(config, { prompt: 'none' })).searchParams.get('error')).toBe('login_required');
    const session = await passkeySession(user.id);
    const cookie = `svc_session=${session}`;
    expect((await authorizeRedirect(config, { prompt: 'none' }, cookie)).searchParams.get('error')).toBe('consent_required');

    await flow({ sessionToken: session });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: suite.callback.url,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'silent',
      nonce: 'silent-nonce',
      prompt: 'none',
    });
    const answered = await fetch(url, { redirect: 'manual', headers: { cookie } });
    expect(answered.status).toBe(303);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(answered.headers.get('location')!), {
      pkceCodeVerifier: verifier,
      expectedState: 'silent',
      expectedNonce: 'silent-nonce',
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ acr: 'phr' });

    // max_age the session is too old for: the person must sign in, which prompt=none forbids.
    const old = `svc_session=${await passkeySession(user.id, 600)}`;
    expect((await authorizeRedirect(config, { prompt: 'none', max_age: '60' }, old)).searchParams.get('error')).toBe('login_required');
    // Refused before anything: none with another value, a value this service does not know.
    expect((await authorizeRedirect(config, { prompt: 'none login' })).searchParams.get('error')).toBe('invalid_request');
    expect((await authorizeRedirect(config, { prompt: 'select_account' })).searchParams.get('error')).toBe('invalid_request');
  });

  it('prompt=login and max_age ask a session older than the request to sign in again', async () => {
    const { config, flow, user } = await arranged('assurance-login');
    for (const params of [{ prompt: 'login' }, { max_age: '60' }] as Record<string, string>[]) {
      const session = await passkeySession(user.id, 120);
      const pending = await authorizeRedirect(config, params);
      const approve = await fetch(`${suite.idp.issuer}/oauth/authorize/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
        body: JSON.stringify({ authorization_id: pending.searchParams.get('authorization_id') }),
      });
      expect(approve.status).toBe(403);
      const page = await fetch(pending, { headers: { cookie: `svc_session=${session}`, accept: 'text/html' } });
      expect(await page.text()).toContain('asks you to sign in again');
    }
    // Signed in after the request: good for both, and openid-client checks auth_time against max_age.
    const { tokens } = await flow({ extra: { prompt: 'login consent', max_age: '60' }, maxAge: 60 });
    expect(tokens.claims()!.acr).toBe('pwd');
  });

  it('uses the client’s default_acr_values and default_max_age when a request names none', async () => {
    const { flow, user } = await arranged('assurance-defaults', { default_acr_values: ['phr'], default_max_age: 60 });
    const old = await passkeySession(user.id, 600);
    await expect(flow({ sessionToken: old })).rejects.toThrow(/login_required/);
    const { tokens } = await flow({ sessionToken: await passkeySession(user.id) });
    expect(tokens.claims()!.acr).toBe('phr');
  });
});

describe('step-up for sensitive presets (RFC 9470), with openid-client', () => {
  it('challenges a password token reading a high-sensitivity preset, and serves a passkey token', async () => {
    const { config, flow, user } = await arranged('step-up', { sensitive_data_acr: 'phr', sensitive_data_max_age: 300 });
    const { tokens } = await flow();
    const read = (token: string, path: string, body?: object) =>
      oidc.fetchProtectedResource(
        config,
        token,
        new URL(`${suite.idp.issuer}${path}`),
        body ? 'POST' : 'GET',
        body ? JSON.stringify(body) : undefined,
        body ? new Headers({ 'content-type': 'application/json' }) : undefined,
      );
    const refused = await read(tokens.access_token, '/v2/presets/date_of_birth').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    const [challenge] = (refused as oidc.WWWAuthenticateChallengeError).cause;
    expect(challenge).toMatchObject({ scheme: 'bearer', parameters: { error: 'insufficient_user_authentication', acr_values: 'phr', max_age: '300' } });
    const body = await (refused as oidc.WWWAuthenticateChallengeError).response.json();
    expect(body).toMatchObject({ error: 'insufficient_user_authentication', error_code: 'E4011', context: { acr_values: 'phr', max_age: 300 } });
    // A batch or a query touching it is refused alike; a low-sensitivity read is not.
    await expect(read(tokens.access_token, '/v2/presets/batch', { presets: ['service_uuid', 'date_of_birth'] })).rejects.toBeInstanceOf(
      oidc.WWWAuthenticateChallengeError,
    );
    await expect(
      read(tokens.access_token, '/v2/queries/evaluate', { query: { check: { claim: 'date_of_birth', operator: 'isDefined' } } }),
    ).rejects.toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect((await read(tokens.access_token, '/v2/presets/service_uuid')).status).toBe(200);

    // The client does what the challenge says: authorize again with acr_values and max_age.
    const stepped = await flow({ extra: { acr_values: 'phr', max_age: '300' }, sessionToken: await passkeySession(user.id), maxAge: 300 });
    const served = await read(stepped.tokens.access_token, '/v2/presets/date_of_birth');
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ preset: 'date_of_birth', value: '1990-04-12' });
    // Too old a passkey sign-in is challenged too.
    const stale = await flow({ sessionToken: await passkeySession(user.id, 900) });
    await expect(read(stale.tokens.access_token, '/v2/presets/date_of_birth')).rejects.toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
  });
});
