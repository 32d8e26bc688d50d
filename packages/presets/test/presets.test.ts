import { describe, expect, it } from '@jest/globals';
import { SCOPES, ZPresetList } from '@svc/schemas';
import {
  ageAt,
  claimsNeededFor,
  PRESET_LISTING,
  PRESET_NAMES,
  PRESETS,
  presetDefinition,
  resolvePreset,
  type StoredCredential,
  type SubjectData,
} from '../src/index.js';

describe('the preset table', () => {
  it('defines all 42 presets, each with one known scope and every listing field', () => {
    expect(PRESETS.map((p) => p.name)).toEqual([...PRESET_NAMES]);
    for (const p of PRESETS) {
      expect(SCOPES).toContain(p.scope);
      expect(p.description.length).toBeGreaterThan(10);
      expect(p.consentText.length).toBeGreaterThan(5);
      expect(p.format.length).toBeGreaterThan(3);
    }
  });

  it('puts the sensitive items behind their own scopes', () => {
    const scopeOf = (n: string) => presetDefinition(n)!.scope;
    expect({
      date_of_birth: scopeOf('date_of_birth'),
      address_postal_code: scopeOf('address_postal_code'),
      address_full: scopeOf('address_full'),
      legal_name: scopeOf('legal_name'),
      document_number: scopeOf('document_number'),
      bank_balance_total: scopeOf('bank_balance_total'),
      loan_balance_total: scopeOf('loan_balance_total'),
      net_worth_total: scopeOf('net_worth_total'),
    }).toEqual({
      date_of_birth: 'identity:date_of_birth',
      address_postal_code: 'identity:address_postal_code',
      address_full: 'identity:address_full',
      legal_name: 'identity:legal_name',
      document_number: 'kyc:document_number',
      bank_balance_total: 'financial:bank_balance',
      loan_balance_total: 'financial:loan_balance',
      net_worth_total: 'financial:net_worth',
    });
  });

  it('derives presets only from non-derived parents, and types the flags as booleans', () => {
    for (const p of PRESETS.filter((x) => x.derived)) {
      expect(presetDefinition(p.parentField!)?.derived).toBe(false);
    }
    expect(
      PRESETS.filter((p) => p.derived)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['age', 'age_over_18', 'age_over_21', 'is_human', 'net_worth_above_100k', 'net_worth_above_10k']);
    expect(PRESETS.filter((p) => /^provider_[a-g]_connected$/.test(p.name)).every((p) => p.type === 'boolean')).toBe(true);
    expect(presetDefinition('social_accounts')!.type).toBe('array');
  });
});

describe('the listing and scope coverage', () => {
  it('lists every preset in the shape of the spec, with its format', () => {
    expect(ZPresetList.parse({ presets: PRESET_LISTING }).presets).toHaveLength(42);
    expect(PRESET_LISTING.find((p) => p.name === 'is_human')).toMatchObject({ derived: true, parentField: 'palm_verified', type: 'boolean' });
    expect(PRESET_LISTING.find((p) => p.name === 'nationality')).not.toHaveProperty('parentField');
  });

  it('needs the readable presets and the parents of derived ones, nothing else', () => {
    const needed = claimsNeededFor(['identity:read']);
    expect(needed.has('age_over_18') && needed.has('date_of_birth') && needed.has('nationality')).toBe(true);
    expect(needed.has('net_worth_total') || needed.has('legal_name') || needed.has('email')).toBe(false);
    expect([...claimsNeededFor(['financial:read'])]).toEqual(expect.arrayContaining(['net_worth_above_10k', 'net_worth_total', 'proof_of_assets']));
    expect(claimsNeededFor([]).size).toBe(0);
  });
});

const now = new Date('2026-11-22T12:00:00Z');
const day = 86_400_000;

function credential(claims: Record<string, unknown>, extra: Partial<StoredCredential> = {}): StoredCredential {
  return {
    id: `c-${Object.keys(claims).join('-')}`,
    source: 'kyc_provider',
    claims,
    status: 'valid',
    verifiedAt: new Date(now.getTime() - day),
    expiresAt: new Date(now.getTime() + 30 * day),
    ...extra,
  };
}

function subject(credentials: StoredCredential[], extra: Partial<SubjectData> = {}): SubjectData {
  return {
    user: {
      serviceId: '32e39762-3bec-479c-9e37-90750bbd2631',
      palmVerified: true,
      palmVerifiedAt: new Date('2026-01-01T00:00:00Z'),
      createdAt: new Date('2025-12-01T00:00:00Z'),
    },
    wallets: [
      { address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', isPrimary: false },
      { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', isPrimary: true },
    ],
    credentials,
    ...extra,
  };
}

const everything = credential({
  service_score: 92,
  service_user: true,
  legal_name: 'Alice Example',
  date_of_birth: '1990-04-12',
  nationality: 'DE',
  country_of_residence: 'DE',
  residency_region: 'EU',
  address_postal_code: '10115',
  address_full: 'Invalidenstraße 1, 10115 Berlin, DE',
  document_country: 'DE',
  document_expiry_date: '2031-06-30',
  document_number: 'C01X00T47',
  kyc_passed: true,
  kyc_last_updated_at: '2026-10-01T09:30:00.000Z',
  proof_of_residency: true,
  net_worth_total: 152340.5,
  bank_balance_total: 48210.75,
  loan_balance_total: 12000,
  proof_of_assets: true,
  proof_of_investments: true,
  proof_of_mortgage: false,
  proof_of_retirement: true,
  email: 'alice@demo.example',
  phone: '+4930123456789',
  social_accounts: [{ provider: 'github', handle: 'alice', verified: true }],
  provider_a_connected: true,
  provider_b_connected: false,
  provider_c_connected: false,
  provider_d_connected: false,
  provider_e_connected: true,
  provider_f_connected: false,
  provider_g_connected: false,
});

describe('resolvePreset', () => {
  it('resolves every preset from a complete set of credentials', () => {
    const data = subject([everything]);
    const results = PRESET_NAMES.map((n) => resolvePreset(n, data, now));
    expect(results.filter((r) => r.status !== 'valid')).toEqual([]);
    const value = (n: (typeof PRESET_NAMES)[number]) => results.find((r) => r.preset === n)!.value;
    expect([value('age'), value('age_over_18'), value('age_over_21'), value('net_worth_above_10k'), value('net_worth_above_100k'), value('is_human')]).toEqual([
      36,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(value('wallet_address')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    expect(value('service_uuid')).toBe('32e39762-3bec-479c-9e37-90750bbd2631');
    expect(resolvePreset('age', data, now)).toMatchObject({
      expiresAt: everything.expiresAt,
      evidence: { source: 'kyc_provider', credential_id: everything.id, derived_from: 'date_of_birth' },
    });
  });

  it('computes age at the time of the request, across the birthday', () => {
    expect(ageAt('2008-11-22', new Date('2026-11-21T23:59:59Z'))).toBe(17);
    expect(ageAt('2008-11-22', new Date('2026-11-22T00:00:00Z'))).toBe(18);
    expect(ageAt('2000-02-29', new Date('2026-02-28T12:00:00Z'))).toBe(25);
    expect(ageAt('2000-02-29', new Date('2026-03-01T00:00:00Z'))).toBe(26);
    const teen = subject([credential({ date_of_birth: '2008-11-23' })]);
    expect(resolvePreset('age_over_18', teen, now).value).toBe(false);
  });

  it.each([
    ['pending', credential({ kyc_passed: true }, { status: 'pending' }), 'pending', 'pending'],
    ['revoked', credential({ kyc_passed: true }, { status: 'revoked' }), 'pending', 'revoked'],
    ['expired', credential({ kyc_passed: true }, { expiresAt: new Date(now.getTime() - 1) }), 'expired', 'expired'],
    ['malformed', credential({ kyc_passed: 'yes' }), 'unavailable', 'malformed'],
  ])('gives a %s credential its status', (_what, cred, status, reason) => {
    expect(resolvePreset('kyc_passed', subject([cred]), now)).toMatchObject({ value: null, status, reason });
  });

  it('answers unavailable for data the user does not have, and for malformed dates and countries', () => {
    expect(resolvePreset('legal_name', subject([]), now)).toMatchObject({ status: 'unavailable', reason: 'incomplete' });
    expect(resolvePreset('age', subject([credential({ date_of_birth: '1990-02-30' })]), now)).toMatchObject({ status: 'unavailable', reason: 'malformed' });
    expect(resolvePreset('nationality', subject([credential({ nationality: 'Germany' })]), now).status).toBe('unavailable');
    expect(resolvePreset('wallet_address', subject([], { wallets: [] }), now).status).toBe('unavailable');
  });

  it('prefers the most recently verified valid credential', () => {
    const old = credential({ nationality: 'FR' }, { id: 'old', verifiedAt: new Date(now.getTime() - 10 * day) });
    const fresh = credential({ nationality: 'DE' }, { id: 'fresh', verifiedAt: new Date(now.getTime() - day) });
    const revokedNewest = credential({ nationality: 'IT' }, { id: 'revoked', status: 'revoked', verifiedAt: now });
    expect(resolvePreset('nationality', subject([old, revokedNewest, fresh]), now)).toMatchObject({ value: 'DE', evidence: { credential_id: 'fresh' } });
  });

  it('derives is_human from palm verification on the user record', () => {
    const unverified = subject([], { user: { serviceId: '32e39762-3bec-479c-9e37-90750bbd2631', palmVerified: false, palmVerifiedAt: null, createdAt: now } });
    expect(resolvePreset('is_human', unverified, now)).toMatchObject({ value: false, status: 'valid' });
  });
});
