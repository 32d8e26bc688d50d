// admin client:register: RFC 7591 client metadata in, the registration response out, checked as the
// identity provider's registration endpoint and the developer console check it.
import { describe, expect, it } from '@jest/globals';
import { cli, db, expectRefused, newOrg } from './cli-harness.js';

describe('client:register', () => {
  it('registers from RFC 7591 metadata and prints the registration response with a registration access token', async () => {
    const { org } = await newOrg();
    const metadata = { client_name: 'Registered', redirect_uris: ['https://app.example/cb'], scope: 'openid identity:read', software_id: 'ignored' };
    const run = await cli('client:register', '--org', org.id, '--metadata', JSON.stringify(metadata));
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({
      client_id: expect.stringMatching(/^svc_client_/),
      client_secret: expect.stringMatching(/^svcs_/),
      client_secret_expires_at: 0,
      registration_access_token: expect.stringMatching(/^svcrat_[0-9A-Za-z]{43}$/),
      client_name: 'Registered',
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      response_types: ['code'],
      scope: 'openid identity:read',
    });
    expect(run.json).not.toHaveProperty('software_id');
    const app = await db.application.findUniqueOrThrow({ where: { clientId: run.json.client_id } });
    expect(app.registrationTokenHash).toHaveLength(64);
  });

  it('refuses metadata the console would refuse, naming the member', async () => {
    const { org } = await newOrg();
    expectRefused(
      await cli('client:register', '--org', org.id, '--metadata', JSON.stringify({ redirect_uris: ['http://app.example/cb'], scope: 'openid' })),
      /--metadata redirect_uris\[0\] must use https/,
    );
    expectRefused(await cli('client:register', '--org', org.id, '--metadata', '{not json'), /--metadata is not valid JSON/);
    expectRefused(
      await cli(
        'client:register',
        '--org',
        org.id,
        '--metadata',
        JSON.stringify({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }),
      ),
      /jwks is required for private_key_jwt/,
    );
  });
});
