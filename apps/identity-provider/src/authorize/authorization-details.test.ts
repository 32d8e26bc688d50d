import { describe, expect, it } from '@jest/globals';
import { credentialDetails, credentialScopeDetails, grantedDetails, mergedDetails } from './authorization-details.js';

const issuer = { url: 'https://issuer.example' };
const scopes = ['openid', 'identity:read'];
const age = { type: 'openid_credential' as const, credential_configuration_id: 'age_over_sd_jwt' };

describe('credentialDetails', () => {
  it('reads a JSON string (query, form) or an array (request object), names the issuer, and counts a repeat once', () => {
    const expected = [{ ...age, locations: [issuer.url] }];
    expect(credentialDetails(JSON.stringify([age, age]), issuer, scopes)).toEqual(expected);
    expect(credentialDetails([{ ...age, locations: [issuer.url] }], issuer, scopes)).toEqual(expected);
    expect(credentialDetails(undefined, issuer, scopes)).toBeUndefined();
    expect(grantedDetails(expected)).toEqual([{ ...expected[0], credential_identifiers: ['age_over_sd_jwt'] }]);
  });

  it('refuses what it cannot grant with invalid_authorization_details, naming why', () => {
    const refused = (raw: string | unknown[], server: { url: string } | null = issuer) => {
      try {
        credentialDetails(raw, server ?? undefined, scopes);
      } catch (err) {
        return `${(err as { code: string }).code}: ${(err as Error).message}`;
      }
      return 'granted';
    };
    expect(refused('{')).toMatch(/^invalid_authorization_details: .*JSON array/);
    expect(refused([])).toMatch(/non-empty/);
    expect(refused([{ type: 'payment_initiation' }])).toMatch(/\[0\]\.type must be openid_credential/);
    expect(refused([age], null)).toMatch(/authorizes no credential issuer/);
    expect(refused([{ ...age, credential_configuration_id: 'passport' }])).toMatch(/passport is not a credential/);
    expect(refused([{ ...age, locations: ['https://other.example'] }])).toMatch(/locations/);
    expect(refused([{ ...age, extra: 1 }])).toMatch(/^invalid_authorization_details: authorization_details\[0\]/);
    expect(refused(Array(7).fill(age))).toMatch(/at most 6/);
    // The client may ask for the person's identity data (age) but not their KYC status.
    expect(refused([{ ...age, credential_configuration_id: 'kyc_sd_jwt' }])).toMatch(/needs the scope kyc:read/);
  });
});

describe('credentialScopeDetails', () => {
  it('asks for a credential by its configuration’s scope as its authorization detail would, and counts both ways once', () => {
    const byScope = credentialScopeDetails(['age_over_mdoc'], issuer, scopes);
    expect(byScope).toEqual([{ type: 'openid_credential', credential_configuration_id: 'age_over_mdoc', locations: [issuer.url] }]);
    const both = mergedDetails(credentialDetails([age], issuer, scopes), credentialScopeDetails(['age_over_sd_jwt', 'age_over_mdoc'], issuer, scopes));
    expect(both?.map((d) => d.credential_configuration_id)).toEqual(['age_over_sd_jwt', 'age_over_mdoc']);
    expect(credentialScopeDetails(['age_over_mdoc'], undefined, scopes)).toEqual([]);
  });

  it('refuses a credential scope whose data the client may not ask for, with invalid_scope', () => {
    expect(() => credentialScopeDetails(['kyc_sd_jwt'], issuer, scopes)).toThrow(
      expect.objectContaining({ code: 'invalid_scope', message: expect.stringContaining('kyc:read') }),
    );
  });
});
