import { describe, expect, it } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { codeFlowWithOpenIdClient, useRunningIdp } from './server.js';

const suite = useRunningIdp();
const PASSWORD = 'correct horse battery';

/** A palm-verified person who owns an organization: its clients are registered in each test. */
async function signedUp(label: string, organization: string) {
  const ctx = { db: suite.db, now: () => new Date() };
  const user = await createUser(ctx, { email: uniqueEmail(label), password: PASSWORD, palmVerified: true });
  const org = await createOrg(ctx, { name: organization, ownerEmail: user.email });
  return { ctx, user, org };
}

describe('a standards-following client (openid-client) against the running provider', () => {
  it('discovers, authorizes with PKCE, verifies the id_token, reads userinfo, refreshes, revokes', async () => {
    const { ctx, user, org } = await signedUp('e2e', 'E2E Org');
    const registered = await createClient(ctx, {
      org: org.id,
      name: 'E2E App',
      redirectUris: [suite.callback.url],
      scopes: 'openid identity:read profile.full',
    });

    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, registered.client_secret!, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);
    const { tokens, nonce } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read profile.full',
      email: user.email,
      password: PASSWORD,
    });
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(suite.idp.issuer);
    expect(claims.aud).toBe(registered.client_id);
    expect(claims.nonce).toBe(nonce);
    expect(claims.sub).toBe(tokens.app_scoped_user_id);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, email: user.email });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe(claims.sub);

    await oidc.tokenRevocation(config, refreshed.access_token);
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
  });
});

describe('a resource server introspecting with openid-client (RFC 7662, RFC 9701)', () => {
  it('learns a live token’s state as JSON and as a signed JWT, and that a revoked one is inactive', async () => {
    const { ctx, user, org } = await signedUp('e2e-introspect', 'Introspecting Org');
    const registered = await createClient(ctx, { org: org.id, name: 'RS App', redirectUris: [suite.callback.url], scopes: 'openid identity:read' });
    const discover = (metadata: Partial<oidc.ClientMetadata> = {}) =>
      oidc.discovery(new URL(suite.idp.issuer), registered.client_id, { client_secret: registered.client_secret!, ...metadata }, undefined, {
        execute: [oidc.allowInsecureRequests],
      });
    const config = await discover();
    expect(config.serverMetadata().introspection_endpoint).toBe(`${suite.idp.issuer}/oauth/introspect`);
    const { tokens } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read',
      email: user.email,
      password: PASSWORD,
    });

    const plain = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(plain).toMatchObject({ active: true, client_id: registered.client_id, sub: tokens.app_scoped_user_id, token_type: 'Bearer' });
    // Asking for the signed answer makes the library check its signature, typ, iss and aud.
    const signed = await oidc.tokenIntrospection(await discover({ introspection_signed_response_alg: 'RS256' }), tokens.access_token);
    expect(signed).toMatchObject({ active: true, scope: 'identity:read openid', iss: suite.idp.issuer });

    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
  });
});

describe('a machine client with openid-client (client_credentials)', () => {
  it('gets a token for itself and reads its organization’s change list with it; a user scope is refused', async () => {
    const { ctx, org } = await signedUp('e2e-machine', 'Machine Org');
    const registered = await createClient(ctx, { org: org.id, name: 'Batch Job', redirectUris: [suite.callback.url], scopes: 'openid identity:read' });
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, registered.client_secret!, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().grant_types_supported).toContain('client_credentials');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'authorizations:read' });
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'authorizations:read' });
    expect(tokens.refresh_token).toBeUndefined();
    const list = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(`${suite.idp.issuer}/v2/authorizations`), 'GET');
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ items: [] });
    await expect(oidc.clientCredentialsGrant(config, { scope: 'identity:read' })).rejects.toMatchObject({ error: 'invalid_scope' });
  });
});

describe('pushed authorization requests with openid-client (RFC 9126)', () => {
  it('pushes the request, sends only client_id and request_uri through the browser, and completes the flow', async () => {
    const { ctx, user, org } = await signedUp('e2e-par', 'PAR Org');
    const registered = await createClient(ctx, {
      org: org.id,
      name: 'PAR App',
      redirectUris: [suite.callback.url],
      scopes: 'openid identity:read',
      requirePushedAuthorization: true,
    });
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, registered.client_secret!, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(`${suite.idp.issuer}/oauth/par`);
    const { tokens, nonce } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read',
      email: user.email,
      password: PASSWORD,
      pushed: true,
    });
    expect(tokens.claims()).toMatchObject({ nonce, aud: registered.client_id });
  });
});

describe('signed request objects with openid-client (RFC 9101), pushed, with private_key_jwt and DPoP', () => {
  it('signs the request, pushes it, authenticates with its key and gets DPoP-bound tokens', async () => {
    const { ctx, user, org } = await signedUp('e2e-jar', 'JAR Org');
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const registered = await createClient(ctx, {
      org: org.id,
      name: 'JAR App',
      redirectUris: [suite.callback.url],
      scopes: 'openid identity:read',
      jwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'jar-1', alg: 'ES256' }] }),
      requirePushedAuthorization: true,
    });
    const key = { key: privateKey, kid: 'jar-1' };
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, undefined, oidc.PrivateKeyJwt(key), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().request_object_signing_alg_values_supported).toContain('ES256');
    const dpop = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const { tokens, nonce } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read',
      email: user.email,
      password: PASSWORD,
      pushed: true,
      requestKey: key,
      dpop,
    });
    expect(tokens.token_type).toBe('dpop');
    expect(tokens.claims()).toMatchObject({ nonce, aud: registered.client_id });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub, { DPoP: dpop });
    expect(info.sub).toBe(tokens.claims()!.sub);
  });
});

describe('logout with openid-client (RP-Initiated and Back-Channel Logout 1.0)', () => {
  it('ends the session from the library’s end-session URL, returns with state, and tells the client’s back channel', async () => {
    const { ctx, user, org } = await signedUp('e2e-logout', 'Logout Org');
    const signedOut = suite.callback.url.replace('/callback', '/signed-out');
    const backchannel = suite.callback.url.replace('/callback', '/backchannel-logout');
    const registered = await createClient(ctx, {
      org: org.id,
      name: 'Logout App',
      redirectUris: [suite.callback.url],
      scopes: 'openid identity:read',
      postLogoutRedirectUris: [signedOut],
      backchannelLogoutUri: backchannel,
    });
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, registered.client_secret!, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata()).toMatchObject({ end_session_endpoint: `${suite.idp.issuer}/oauth/logout`, backchannel_logout_supported: true });
    const { tokens, session } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read',
      email: user.email,
      password: PASSWORD,
    });
    const state = oidc.randomState();
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: signedOut, state });
    const res = await fetch(url, { headers: { authorization: `Bearer ${session}` }, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${signedOut}?state=${state}`);

    let delivered: { url: URL; body: string } | undefined;
    for (let i = 0; i < 100 && !delivered; i++) {
      delivered = suite.callback.posts.find((p) => p.url.pathname === '/backchannel-logout');
      if (!delivered) await new Promise((r) => setTimeout(r, 50));
    }
    const logoutToken = new URLSearchParams(delivered!.body).get('logout_token')!;
    const { payload } = await jwtVerify(logoutToken, createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)), {
      issuer: suite.idp.issuer,
      audience: registered.client_id,
      typ: 'logout+jwt',
    });
    expect(payload).toMatchObject({ sub: tokens.claims()!.sub, sid: tokens.claims()!.sid });
    // The session is over: it can no longer approve anything.
    const approve = await fetch(`${suite.idp.issuer}/oauth/authorize/context?authorization_id=00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(approve.status).toBe(401);
  });
});

describe('a FAPI 2.0 client with openid-client', () => {
  it('pushes a signed request, authenticates with its key, binds tokens with DPoP and verifies a PS256 id_token', async () => {
    const { ctx, user, org } = await signedUp('e2e-fapi', 'FAPI Org');
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const registered = await createClient(ctx, {
      org: org.id,
      name: 'Bank App',
      redirectUris: [suite.callback.url],
      scopes: 'openid identity:read',
      jwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'fapi-1', alg: 'ES256' }] }),
      fapiProfile: 'fapi2',
    });
    const key = { key: privateKey, kid: 'fapi-1' };
    // The library checks the id_token's alg against what the client registered.
    const config = await oidc.discovery(new URL(suite.idp.issuer), registered.client_id, { id_token_signed_response_alg: 'PS256' }, oidc.PrivateKeyJwt(key), {
      execute: [oidc.allowInsecureRequests],
    });
    const dpop = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const { tokens } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read',
      email: user.email,
      password: PASSWORD,
      pushed: true,
      requestKey: key,
      dpop,
    });
    expect(tokens.token_type).toBe('dpop');
    expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).alg).toBe('PS256');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    expect(refreshed.claims()?.sub).toBe(tokens.claims()!.sub);
  });
});
