import { z } from 'zod';

/** The fourteen scopes of the spec, in its order. */
export const SCOPES = [
  'identity:read',
  'kyc:read',
  'financial:read',
  'identity:date_of_birth',
  'identity:address_postal_code',
  'identity:address_full',
  'identity:legal_name',
  'kyc:document_number',
  'financial:bank_balance',
  'financial:loan_balance',
  'financial:net_worth',
  'openid',
  'profile.full',
  'data.read',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * What a client may hold for itself with the client_credentials grant: its own organization's
 * data, never a user's (every scope above needs that user's authorization).
 */
export const CLIENT_SCOPES = ['authorizations:read'] as const;
export const ZScope = z.enum(SCOPES);

export interface ScopeDetail {
  id: Scope;
  display_name: string;
  description: string;
  category: 'identity' | 'kyc' | 'financial' | 'profile';
  /** Granting this scope also grants these (a specific item implies reading its area's summary). */
  implied_scopes?: Scope[];
  is_default?: boolean;
}

/** What the consent page shows and `/.well-known/svc-configuration` publishes for each scope. */
export const SCOPE_CATALOG: readonly ScopeDetail[] = [
  {
    id: 'openid',
    display_name: 'Sign you in',
    description: 'Confirm who you are to this app with a private identifier, without sharing other details.',
    category: 'profile',
    is_default: true,
  },
  {
    id: 'identity:read',
    display_name: 'Basic identity',
    description: 'Whether you are a verified unique human, your age bracket, nationality and country of residence.',
    category: 'identity',
  },
  {
    id: 'identity:date_of_birth',
    display_name: 'Date of birth',
    description: 'Your exact date of birth.',
    category: 'identity',
    implied_scopes: ['identity:read'],
  },
  {
    id: 'identity:address_postal_code',
    display_name: 'Postal code',
    description: 'The postal code of your verified address.',
    category: 'identity',
    implied_scopes: ['identity:read'],
  },
  {
    id: 'identity:address_full',
    display_name: 'Full address',
    description: 'Your full verified postal address.',
    category: 'identity',
    implied_scopes: ['identity:read'],
  },
  {
    id: 'identity:legal_name',
    display_name: 'Legal name',
    description: 'Your full legal name from your identity document.',
    category: 'identity',
    implied_scopes: ['identity:read'],
  },
  {
    id: 'kyc:read',
    display_name: 'Identity check results',
    description: 'Whether you passed identity checks (KYC), when, and your document’s country and expiry.',
    category: 'kyc',
  },
  {
    id: 'kyc:document_number',
    display_name: 'ID document number',
    description: 'The number of your identity document.',
    category: 'kyc',
    implied_scopes: ['kyc:read'],
  },
  {
    id: 'financial:read',
    display_name: 'Financial summary',
    description: 'Whether your net worth is above set thresholds and which financial proofs you have provided.',
    category: 'financial',
  },
  {
    id: 'financial:bank_balance',
    display_name: 'Bank balance',
    description: 'Your total bank balance.',
    category: 'financial',
    implied_scopes: ['financial:read'],
  },
  {
    id: 'financial:loan_balance',
    display_name: 'Loan balance',
    description: 'Your total outstanding loans.',
    category: 'financial',
    implied_scopes: ['financial:read'],
  },
  { id: 'financial:net_worth', display_name: 'Net worth', description: 'Your total net worth.', category: 'financial', implied_scopes: ['financial:read'] },
  { id: 'profile.full', display_name: 'Profile and contacts', description: 'Your email, phone, wallet addresses and linked accounts.', category: 'profile' },
  { id: 'data.read', display_name: 'Service data', description: 'Your verification score and whether you use the service.', category: 'profile' },
];

const detail = new Map(SCOPE_CATALOG.map((s) => [s.id, s]));

export function scopeDetail(id: string): ScopeDetail | undefined {
  return detail.get(id as Scope);
}

/** The scopes with everything they imply, in catalog order. */
export function withImplied(scopes: readonly string[]): Scope[] {
  const out = new Set<string>();
  for (const s of scopes) {
    out.add(s);
    for (const implied of detail.get(s as Scope)?.implied_scopes ?? []) out.add(implied);
  }
  return SCOPES.filter((s) => out.has(s));
}
