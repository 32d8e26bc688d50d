import { describe, expect, it } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { useRunningIdp } from './server.js';

const suite = useRunningIdp();

const SCOPE = 'openid identity:read profile.full';

async function arrangeUser() {
  const ctx = { db: suite.db, now: () => new Date() };
  const user = await createUser(ctx, { email: uniqueEmail('dpop'), password: 'correct horse battery', palmVerified: true });
  const org = await createOrg(ctx, { name: 'DPoP Org', ownerEmail: user.email });
  return { ctx, user, org };
}

/** The account holder approves through the JSON API; returns where the browser would land. */
async function approveAs(email: string, config: oidc.Configuration, verifier: string, state: string) {
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: suite.callback.url,
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const started = (await (await fetch(url)).json()) as { authorization_id: string };
  const session = (await (
    await fetch(`${suite.idp.issuer}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    })
  ).json()) as { session_token: string };
  const approved = (await (
    await fetch(`${suite.idp.issuer}/oauth/authorize/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
      body: JSON.stringify({ authorization_id: started.authorization_id }),
    })
  ).json()) as { redirect_to: string };
  return new URL(approved.redirect_to);
}

describe('sender-constrained tokens with openid-client against the running provider', () => {
  it('binds a public client’s tokens to its DPoP key (RFC 9449): bearer use, another key and a missing proof are refused', async () => {
    const { ctx, user, org } = await arrangeUser();
    const registered = await createClient(ctx, {
      org: org.id,
      name: 'DPoP SPA',
      redirectUris: [suite.callback.url],
      scopes: SCOPE,
      public: true,
      requireDpop: true,
    });
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().dpop_signing_alg_values_supported).toContain('ES256');
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const DPoP = oidc.getDPoPHandle(config, keyPair);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();

    // A client that must use DPoP cannot get tokens without a proof.
    const landed = await approveAs(user.email, config, verifier, state);
    await expect(oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({
      error: 'invalid_dpop_proof',
    });
    const again = await approveAs(user.email, config, verifier, state);
    const tokens = await oidc.authorizationCodeGrant(config, again, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
    expect(tokens.token_type).toBe('dpop');
    const claims = decodeJwt(tokens.access_token) as { aud: string; cnf: { jkt: string } };
    expect(claims.cnf.jkt).toBe(await calculateJwkThumbprint(await exportJWK(keyPair.publicKey)));
    expect(claims.aud).toBe(`${suite.idp.issuer}/v2`);

    const sub = tokens.claims()!.sub;
    await expect(oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).resolves.toMatchObject({ sub, email: user.email });
    const asBearer = await fetch(`${suite.idp.issuer}/v2/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
    const thief = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    await expect(oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP: thief })).rejects.toThrow();

    // The refresh token is bound too: only the same key refreshes it.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: thief })).rejects.toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/DPoP-bound/),
    });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect((decodeJwt(refreshed.access_token) as { cnf: { jkt: string } }).cnf.jkt).toBe(claims.cnf.jkt);
  });

  it('authenticates a confidential client with private_key_jwt (RFC 7523)', async () => {
    const { ctx, user, org } = await arrangeUser();
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'rp-1', alg: 'ES256', use: 'sig' }] });
    const registered = await createClient(ctx, { org: org.id, name: 'Keyed RP', redirectUris: [suite.callback.url], scopes: SCOPE, jwks });
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, undefined, oidc.PrivateKeyJwt({ key: privateKey, kid: 'rp-1' }), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const landed = await approveAs(user.email, config, verifier, state);
    const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type).toBe('bearer');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, tokens.claims()!.sub)).rejects.toThrow();
  });
});
