/**
 * What the palm-verified demo user's credentials say: with the user record (service_uuid,
 * palm_verified, the wallets) and what is derived from both (is_human, age, age_over_18, …), every
 * one of the 42 presets has a value, so each preset and query can be tried on a fresh install.
 */
export const DEMO_CREDENTIALS: { source: string; claims: Record<string, unknown>; expiresInDays: number }[] = [
  {
    source: 'palm_scan',
    expiresInDays: 365,
    claims: { service_score: 92, service_user: true },
  },
  {
    source: 'kyc_provider',
    expiresInDays: 365,
    claims: {
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
    },
  },
  {
    source: 'bank_aggregator',
    expiresInDays: 90,
    claims: {
      net_worth_total: 152340.5,
      bank_balance_total: 48210.75,
      loan_balance_total: 12000,
      proof_of_assets: true,
      proof_of_investments: true,
      proof_of_mortgage: false,
      proof_of_retirement: true,
    },
  },
  {
    source: 'account_links',
    expiresInDays: 180,
    claims: {
      email: 'alice@demo.example',
      phone: '+4930123456789',
      social_accounts: [
        { provider: 'github', handle: 'alice-example', verified: true },
        { provider: 'x', handle: 'alice_example', verified: false },
      ],
      provider_a_connected: true,
      provider_b_connected: true,
      provider_c_connected: false,
      provider_d_connected: false,
      provider_e_connected: true,
      provider_f_connected: false,
      provider_g_connected: false,
    },
  },
];

export const DEMO_WALLETS = {
  verified: ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'],
  // EIP-55's own test vectors; these two happen to checksum to a single case.
  unverified: ['0xde709f2102306220921060314715629080e2fb77'],
};
