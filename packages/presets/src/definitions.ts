import type { PRESET_TYPES, Scope } from '@svc/schemas';
import type { PresetName } from './names.js';

export type PresetType = (typeof PRESET_TYPES)[number];
export type Sensitivity = 'low' | 'medium' | 'high' | 'critical';
export type Category = 'identity' | 'kyc' | 'financial' | 'profile';
/** Where a value comes from: a credential claim, the user record, or another preset. */
export type Origin = 'credential' | 'user' | 'derived';

export interface PresetDefinition {
  name: PresetName;
  scope: Scope;
  category: Category;
  type: PresetType;
  sensitivity: Sensitivity;
  derived: boolean;
  parentField?: PresetName;
  origin: Origin;
  /** The value's exact form, for integrators (dates ISO 8601, countries ISO 3166-1 alpha-2, money in USD). */
  format: string;
  description: string;
  consentText: string;
  enumValues?: readonly string[];
}

const REGIONS = ['EU', 'EEA', 'UK', 'NA', 'LATAM', 'APAC', 'MEA'] as const;
export const RESIDENCY_REGIONS = REGIONS;

type Row = Omit<PresetDefinition, 'name' | 'derived'> & { derived?: boolean };

const flag = (letter: string): Row => ({
  scope: 'profile.full',
  category: 'profile',
  type: 'boolean',
  sensitivity: 'low',
  origin: 'credential',
  format: 'true or false',
  description: `Whether the user has connected an account at external provider ${letter.toUpperCase()}.`,
  consentText: `Whether you have connected your provider ${letter.toUpperCase()} account`,
});

const proof = (what: string, text: string): Row => ({
  scope: 'financial:read',
  category: 'financial',
  type: 'boolean',
  sensitivity: 'medium',
  origin: 'credential',
  format: 'true or false',
  description: `Whether the user has provided verified proof of ${what}.`,
  consentText: `Whether you have proven ${text}`,
});

/**
 * The 42 presets: each readable with exactly one scope. The eight sensitive items sit behind
 * their own scopes; derived presets are computed from their parent at the time of the request.
 */
const TABLE: Record<PresetName, Row> = {
  service_uuid: {
    scope: 'openid',
    category: 'identity',
    type: 'string',
    sensitivity: 'low',
    origin: 'user',
    format: 'UUID',
    description: "The user's humanity id (service id): one per unique human.",
    consentText: 'Your unique humanity id',
  },
  service_score: {
    scope: 'data.read',
    category: 'profile',
    type: 'integer',
    sensitivity: 'low',
    origin: 'credential',
    format: 'integer from 0 to 100',
    description: 'Confidence score of the humanity verification.',
    consentText: 'Your verification score',
  },
  is_human: {
    scope: 'identity:read',
    category: 'identity',
    type: 'boolean',
    sensitivity: 'low',
    origin: 'derived',
    derived: true,
    parentField: 'palm_verified',
    format: 'true or false',
    description: 'Whether the user is a unique, palm-verified human.',
    consentText: 'That you are a verified unique human',
  },
  country_of_residence: {
    scope: 'identity:read',
    category: 'identity',
    type: 'string',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'ISO 3166-1 alpha-2 (e.g. DE)',
    description: 'Country where the user lives.',
    consentText: 'Your country of residence',
  },
  age: {
    scope: 'identity:read',
    category: 'identity',
    type: 'integer',
    sensitivity: 'medium',
    origin: 'derived',
    derived: true,
    parentField: 'date_of_birth',
    format: 'whole years at the time of the request',
    description: "The user's age, computed from the verified date of birth.",
    consentText: 'Your age',
  },
  date_of_birth: {
    scope: 'identity:date_of_birth',
    category: 'identity',
    type: 'date',
    sensitivity: 'high',
    origin: 'credential',
    format: 'ISO 8601 date (YYYY-MM-DD)',
    description: "The user's verified date of birth.",
    consentText: 'Your date of birth',
  },
  residency_region: {
    scope: 'identity:read',
    category: 'identity',
    type: 'enum',
    sensitivity: 'low',
    origin: 'credential',
    format: REGIONS.join(' | '),
    enumValues: REGIONS,
    description: 'Broad region of residence.',
    consentText: 'The region you live in',
  },
  age_over_18: {
    scope: 'identity:read',
    category: 'identity',
    type: 'boolean',
    sensitivity: 'low',
    origin: 'derived',
    derived: true,
    parentField: 'date_of_birth',
    format: 'true or false',
    description: 'Whether the user is at least 18 at the time of the request.',
    consentText: 'Whether you are over 18',
  },
  nationality: {
    scope: 'identity:read',
    category: 'identity',
    type: 'string',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'ISO 3166-1 alpha-2 (e.g. DE)',
    description: "The user's verified nationality.",
    consentText: 'Your nationality',
  },
  email: {
    scope: 'profile.full',
    category: 'profile',
    type: 'string',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'email address',
    description: "The user's verified email address.",
    consentText: 'Your email address',
  },
  phone: {
    scope: 'profile.full',
    category: 'profile',
    type: 'string',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'E.164 (e.g. +4930123456)',
    description: "The user's verified phone number.",
    consentText: 'Your phone number',
  },
  age_over_21: {
    scope: 'identity:read',
    category: 'identity',
    type: 'boolean',
    sensitivity: 'low',
    origin: 'derived',
    derived: true,
    parentField: 'date_of_birth',
    format: 'true or false',
    description: 'Whether the user is at least 21 at the time of the request.',
    consentText: 'Whether you are over 21',
  },
  social_accounts: {
    scope: 'profile.full',
    category: 'profile',
    type: 'array',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'array of {provider: string, handle: string, verified: boolean}',
    description: 'Social accounts linked to the user.',
    consentText: 'Your linked social accounts',
  },
  wallet_address: {
    scope: 'profile.full',
    category: 'profile',
    type: 'string',
    sensitivity: 'low',
    origin: 'user',
    format: 'EIP-55 address',
    description: "The user's wallet address (the primary one when there are several).",
    consentText: 'Your wallet address',
  },
  primary_wallet_address: {
    scope: 'profile.full',
    category: 'profile',
    type: 'string',
    sensitivity: 'low',
    origin: 'user',
    format: 'EIP-55 address',
    description: "The user's primary wallet address.",
    consentText: 'Your primary wallet address',
  },
  address_postal_code: {
    scope: 'identity:address_postal_code',
    category: 'identity',
    type: 'string',
    sensitivity: 'high',
    origin: 'credential',
    format: 'postal code as written in the country',
    description: "The postal code of the user's verified address.",
    consentText: 'Your postal code',
  },
  legal_name: {
    scope: 'identity:legal_name',
    category: 'identity',
    type: 'string',
    sensitivity: 'high',
    origin: 'credential',
    format: 'full legal name',
    description: "The user's legal name from their identity document.",
    consentText: 'Your legal name',
  },
  address_full: {
    scope: 'identity:address_full',
    category: 'identity',
    type: 'string',
    sensitivity: 'critical',
    origin: 'credential',
    format: 'one-line postal address',
    description: "The user's full verified postal address.",
    consentText: 'Your full address',
  },
  document_country: {
    scope: 'kyc:read',
    category: 'kyc',
    type: 'string',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'ISO 3166-1 alpha-2',
    description: "Issuing country of the user's identity document.",
    consentText: 'The country that issued your ID document',
  },
  document_expiry_date: {
    scope: 'kyc:read',
    category: 'kyc',
    type: 'date',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'ISO 8601 date',
    description: "Expiry date of the user's identity document.",
    consentText: 'When your ID document expires',
  },
  document_number: {
    scope: 'kyc:document_number',
    category: 'kyc',
    type: 'string',
    sensitivity: 'critical',
    origin: 'credential',
    format: 'document number as printed',
    description: "The number of the user's identity document.",
    consentText: 'Your ID document number',
  },
  net_worth_total: {
    scope: 'financial:net_worth',
    category: 'financial',
    type: 'number',
    sensitivity: 'critical',
    origin: 'credential',
    format: 'number, USD',
    description: "The user's total net worth in US dollars.",
    consentText: 'Your total net worth',
  },
  bank_balance_total: {
    scope: 'financial:bank_balance',
    category: 'financial',
    type: 'number',
    sensitivity: 'critical',
    origin: 'credential',
    format: 'number, USD',
    description: "The user's total bank balance in US dollars.",
    consentText: 'Your total bank balance',
  },
  loan_balance_total: {
    scope: 'financial:loan_balance',
    category: 'financial',
    type: 'number',
    sensitivity: 'critical',
    origin: 'credential',
    format: 'number, USD',
    description: "The user's total outstanding loans in US dollars.",
    consentText: 'Your total loan balance',
  },
  kyc_passed: {
    scope: 'kyc:read',
    category: 'kyc',
    type: 'boolean',
    sensitivity: 'medium',
    origin: 'credential',
    format: 'true or false',
    description: 'Whether the user passed KYC.',
    consentText: 'Whether you passed identity checks (KYC)',
  },
  kyc_last_updated_at: {
    scope: 'kyc:read',
    category: 'kyc',
    type: 'datetime',
    sensitivity: 'low',
    origin: 'credential',
    format: 'ISO 8601 date-time',
    description: "When the user's KYC was last updated.",
    consentText: 'When your identity checks were last updated',
  },
  net_worth_above_10k: {
    scope: 'financial:read',
    category: 'financial',
    type: 'boolean',
    sensitivity: 'medium',
    origin: 'derived',
    derived: true,
    parentField: 'net_worth_total',
    format: 'true or false',
    description: 'Whether net worth exceeds 10,000 USD.',
    consentText: 'Whether your net worth is above $10,000',
  },
  net_worth_above_100k: {
    scope: 'financial:read',
    category: 'financial',
    type: 'boolean',
    sensitivity: 'medium',
    origin: 'derived',
    derived: true,
    parentField: 'net_worth_total',
    format: 'true or false',
    description: 'Whether net worth exceeds 100,000 USD.',
    consentText: 'Whether your net worth is above $100,000',
  },
  provider_a_connected: flag('a'),
  provider_b_connected: flag('b'),
  provider_c_connected: flag('c'),
  provider_d_connected: flag('d'),
  provider_e_connected: flag('e'),
  provider_f_connected: flag('f'),
  provider_g_connected: flag('g'),
  palm_verified: {
    scope: 'identity:read',
    category: 'identity',
    type: 'boolean',
    sensitivity: 'low',
    origin: 'user',
    format: 'true or false',
    description: 'Whether the user completed palm verification.',
    consentText: 'Whether you completed palm verification',
  },
  service_user: {
    scope: 'data.read',
    category: 'profile',
    type: 'boolean',
    sensitivity: 'low',
    origin: 'credential',
    format: 'true or false',
    description: 'Whether the user is an active user of the service.',
    consentText: 'Whether you use the service',
  },
  proof_of_assets: proof('assets', 'that you hold assets'),
  proof_of_investments: proof('investments', 'that you hold investments'),
  proof_of_mortgage: proof('a mortgage', 'that you have a mortgage'),
  proof_of_residency: { ...proof('residency', 'your residency'), scope: 'kyc:read', category: 'kyc' },
  proof_of_retirement: proof('retirement savings', 'that you have retirement savings'),
};

export const PRESETS: readonly PresetDefinition[] = Object.entries(TABLE).map(([name, row]) => ({
  ...row,
  name: name as PresetName,
  derived: row.derived ?? false,
}));

const byName = new Map(PRESETS.map((p) => [p.name, p]));

export function presetDefinition(name: string): PresetDefinition | undefined {
  return byName.get(name as PresetName);
}
