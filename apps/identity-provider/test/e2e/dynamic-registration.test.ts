// RFC 7591 as a client library that knows it does it: openid-client registers itself with an
// initial access token from the developer API, then signs a user in with the registration.
import { describe, expect, it } from '@jest/globals';
import { createOrg, createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import * as oidc from 'openid-client';
import { codeFlowWithOpenIdClient, useRunningIdp } from './server.js';

const suite = useRunningIdp();
const PASSWORD = 'correct horse battery';

async function post(path: string, token: string, body: object) {
  const res = await fetch(`${suite.idp.issuer}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, string>;
}

describe('openid-client registers itself (RFC 7591) and signs a user in', () => {
  it('discovers the registration endpoint, registers with an initial access token, and completes a PKCE sign-in with the registered client', async () => {
    const ctx = { db: suite.db, now: () => new Date() };
    const owner = await createUser(ctx, { email: uniqueEmail('owner'), password: PASSWORD, palmVerified: true });
    await createOrg(ctx, { name: 'Registering Org', ownerEmail: owner.email });
    const session = await fetch(`${suite.idp.issuer}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: PASSWORD }),
    });
    const { session_token: sessionToken } = (await session.json()) as { session_token: string };
    const { token: initialAccessToken } = await post('/v2/developer/initial-access-tokens', sessionToken!, {});

    const config = await oidc.dynamicClientRegistration(
      new URL(suite.idp.issuer),
      {
        client_name: 'Self-registered',
        redirect_uris: [suite.callback.url],
        scope: 'openid identity:read profile.full',
        token_endpoint_auth_method: 'client_secret_basic',
      },
      undefined,
      { initialAccessToken, execute: [oidc.allowInsecureRequests] },
    );
    const metadata = config.clientMetadata();
    expect(metadata.client_id).toMatch(/^svc_client_/);
    expect(metadata.client_secret).toMatch(/^svcs_/);
    expect(metadata.registration_access_token).toMatch(/^svcrat_/);
    expect(config.serverMetadata().registration_endpoint).toBe(`${suite.idp.issuer}/oauth/register`);

    const { tokens } = await codeFlowWithOpenIdClient(config, {
      issuer: suite.idp.issuer,
      redirectUri: suite.callback.url,
      scope: 'openid identity:read profile.full',
      email: owner.email,
      password: PASSWORD,
    });
    expect(tokens.claims()!.aud).toBe(metadata.client_id);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info).toMatchObject({ email: owner.email });
  });
});
