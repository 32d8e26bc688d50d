import { describe, expect, it } from '@jest/globals';
import { CREDENTIAL_CONFIGURATION_IDS, WALLET_CREDENTIAL_TYPES, walletConfiguration, walletConfigurationIds } from '../src/index.js';

describe('wallet credential configurations', () => {
  it('the ids offers take are exactly each type in each of its formats', () => {
    const derived = WALLET_CREDENTIAL_TYPES.flatMap((t) => Object.values(walletConfigurationIds(t)));
    expect([...CREDENTIAL_CONFIGURATION_IDS].sort()).toEqual(derived.sort());
  });

  it('an id names its type and format; the age credential as an mdoc is the EU age verification attestation', () => {
    expect(walletConfiguration('age_over_mdoc')).toMatchObject({ format: 'mso_mdoc', type: { type: 'age-over', mdoc: { doctype: 'eu.europa.ec.av.1' } } });
    expect(walletConfiguration('kyc_sd_jwt')).toMatchObject({ format: 'dc+sd-jwt', type: { type: 'kyc' } });
    expect(walletConfiguration('kyc_mdoc')).toBeUndefined();
  });
});
