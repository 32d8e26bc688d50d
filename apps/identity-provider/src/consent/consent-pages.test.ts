import { describe, expect, it } from '@jest/globals';
import { renderConsent } from './consent-pages.js';

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
