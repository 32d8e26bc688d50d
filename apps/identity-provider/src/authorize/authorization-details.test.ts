import { describe, expect, it } from '@jest/globals';
import { renderConsent } from '../consent/consent-pages.js';
import { credentialDetails, grantedDetails } from './authorization-details.js';

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

describe('the consent page', () => {
  it('lists each credential asked for a wallet with its facts, in the page language, and no empty scope list', () => {
    const page = renderConsent({
      provider: { name: 'Identity provider', host: 'id.example' },
      authorizationId: 'a',
      appName: 'Wallet',
      organizationName: 'Org',
      scopes: [],
      requested: [],
      credentials: [{ configurationId: 'age_over_sd_jwt', issuerHost: 'issuer.example' }],
      csrf: 'c',
      email: 'p@example.com',
      lang: 'de',
    });
    expect(page).toContain('Nachweise für die Wallet dieser App');
    expect(page).toContain('<strong>Alter</strong>: Über 18, Über 21');
    expect(page).toContain('issuer.example');
    expect(page).not.toContain('name="scopes"');
  });
});
