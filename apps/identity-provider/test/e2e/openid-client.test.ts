import { describe, expect, it } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import * as oidc from 'openid-client';
import { useRunningIdp } from './server.js';

const suite = useRunningIdp();

describe('a standards-following client (openid-client) against the running provider', () => {
  it('discovers, authorizes with PKCE, verifies the id_token, reads userinfo, refreshes, revokes', async () => {
    const ctx = { db: suite.db, now: () => new Date() };
    const user = await createUser(ctx, { email: uniqueEmail('e2e'), password: 'correct horse battery', palmVerified: true });
    const org = await createOrg(ctx, { name: 'E2E Org', ownerEmail: user.email });
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
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: suite.callback.url,
      scope: 'openid identity:read profile.full',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    // The user's part, through the JSON API: sign in, open the request, approve.
    const started = (await (await fetch(url)).json()) as { authorization_id: string };
    const session = (await (
      await fetch(`${suite.idp.issuer}/auth/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: 'correct horse battery' }),
      })
    ).json()) as { session_token: string };
    const approved = (await (
      await fetch(`${suite.idp.issuer}/oauth/authorize/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
        body: JSON.stringify({ authorization_id: started.authorization_id }),
      })
    ).json()) as { redirect_to: string };

    const tokens = await oidc.authorizationCodeGrant(config, new URL(approved.redirect_to), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
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
