/** The 42 preset names of the spec, in its order. */
export const PRESET_NAMES = [
  'service_uuid',
  'service_score',
  'is_human',
  'country_of_residence',
  'age',
  'date_of_birth',
  'residency_region',
  'age_over_18',
  'nationality',
  'email',
  'phone',
  'age_over_21',
  'social_accounts',
  'wallet_address',
  'primary_wallet_address',
  'address_postal_code',
  'legal_name',
  'address_full',
  'document_country',
  'document_expiry_date',
  'document_number',
  'net_worth_total',
  'bank_balance_total',
  'loan_balance_total',
  'kyc_passed',
  'kyc_last_updated_at',
  'net_worth_above_10k',
  'net_worth_above_100k',
  'provider_a_connected',
  'provider_b_connected',
  'provider_c_connected',
  'provider_d_connected',
  'provider_e_connected',
  'provider_f_connected',
  'provider_g_connected',
  'palm_verified',
  'service_user',
  'proof_of_assets',
  'proof_of_investments',
  'proof_of_mortgage',
  'proof_of_residency',
  'proof_of_retirement',
] as const;

export type PresetName = (typeof PRESET_NAMES)[number];

const known: ReadonlySet<string> = new Set(PRESET_NAMES);

export function isPresetName(name: string): name is PresetName {
  return known.has(name);
}
