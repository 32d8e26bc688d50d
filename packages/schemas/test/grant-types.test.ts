import { describe, expect, it } from '@jest/globals';
import { GRANT_TYPES, grantTypesFor, parseClientMetadata, ZClientRegistrationRequest, ZTokenRequest } from '../src/index.js';

describe('the grant types', () => {
  it('have one token request each, and no token request another grant type', () => {
    expect(ZTokenRequest.options.map((option) => option.shape.grant_type.value)).toEqual([...GRANT_TYPES]);
  });

  it('are all registered for a client that authenticates, and all but client_credentials for a public one', () => {
    expect(grantTypesFor('client_secret_basic')).toEqual([...GRANT_TYPES]);
    expect(grantTypesFor('none')).toEqual(GRANT_TYPES.filter((g) => g !== 'client_credentials'));
  });

  it('are what client metadata and the registration request accept, naming them when refused', () => {
    const metadata = (grant_types: string[], token_endpoint_auth_method = 'client_secret_basic') =>
      parseClientMetadata({ redirect_uris: ['https://app.example.com/cb'], grant_types, token_endpoint_auth_method }, ['openid']);
    expect(metadata([...GRANT_TYPES])).toMatchObject({ ok: true, value: { grant_types: [...GRANT_TYPES] } });
    expect(metadata(['authorization_code', 'password'])).toMatchObject({
      ok: false,
      problems: [{ field: 'grant_types', message: 'must include authorization_code, and otherwise only refresh_token or client_credentials' }],
    });
    expect(metadata(['authorization_code', 'client_credentials'], 'none')).toMatchObject({
      ok: false,
      problems: [{ field: 'grant_types', message: 'client_credentials is for a client that authenticates, not token_endpoint_auth_method none' }],
    });
    expect(ZClientRegistrationRequest.safeParse({ redirect_uris: [], grant_types: [...GRANT_TYPES] }).success).toBe(true);
    expect(ZClientRegistrationRequest.safeParse({ redirect_uris: [], grant_types: ['implicit'] }).success).toBe(false);
  });

  it('are named in the refusal of a token request of another grant type', () => {
    const result = ZTokenRequest.safeParse({ grant_type: 'password' });
    expect(result.error?.issues[0]?.message).toBe(
      'grant_type must be authorization_code, refresh_token or client_credentials (password and implicit grants are not supported)',
    );
  });
});
