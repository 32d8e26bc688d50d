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
export const ZScope = z.enum(SCOPES);
