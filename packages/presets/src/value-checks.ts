import { checkAddress, isUuid } from '@svc/schemas';
import { presetDefinition, type PresetDefinition } from './definitions.js';

const ALPHA2 = /^[A-Z]{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const E164 = /^\+[1-9]\d{6,14}$/;

const isDate = (v: unknown) =>
  typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

/** Format checks beyond the type, for the presets whose listing promises a form. */
const BY_NAME: Record<string, (v: unknown) => boolean> = {
  service_uuid: (v) => typeof v === 'string' && isUuid(v),
  service_score: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100,
  country_of_residence: (v) => typeof v === 'string' && ALPHA2.test(v),
  nationality: (v) => typeof v === 'string' && ALPHA2.test(v),
  document_country: (v) => typeof v === 'string' && ALPHA2.test(v),
  email: (v) => typeof v === 'string' && EMAIL.test(v),
  phone: (v) => typeof v === 'string' && E164.test(v),
  wallet_address: (v) => typeof v === 'string' && checkAddress(v).ok,
  primary_wallet_address: (v) => typeof v === 'string' && checkAddress(v).ok,
  social_accounts: (v) =>
    Array.isArray(v) &&
    v.every((a) => typeof a === 'object' && a !== null && typeof a.provider === 'string' && typeof a.handle === 'string' && typeof a.verified === 'boolean'),
};

/** What a well-formed value looks like, in words, for operators' error messages. */
const HINTS: Record<string, string> = {
  service_uuid: 'a UUID',
  service_score: 'a whole number from 0 to 100',
  country_of_residence: 'an ISO 3166-1 alpha-2 code such as "DE"',
  nationality: 'an ISO 3166-1 alpha-2 code such as "DE"',
  document_country: 'an ISO 3166-1 alpha-2 code such as "DE"',
  email: 'an email address',
  phone: 'an E.164 number such as "+4915112345678"',
  wallet_address: 'an EIP-55 checksummed address',
  primary_wallet_address: 'an EIP-55 checksummed address',
  social_accounts: 'an array of {"provider": string, "handle": string, "verified": boolean}',
};
const TYPE_HINTS: Record<PresetDefinition['type'], string> = {
  string: 'a non-empty string (at most 1000 characters)',
  number: 'a finite number',
  integer: 'a whole number',
  boolean: 'true or false',
  date: 'a date such as "1990-04-01"',
  datetime: 'an ISO 8601 date-time with a zone, such as "2026-01-31T12:00:00Z"',
  enum: 'one of',
  array: 'an array',
};

/** What `name` must hold, in words ("" for a name that is no preset). */
export function formatHint(name: string): string {
  const def = presetDefinition(name);
  if (!def) return '';
  if (HINTS[name]) return HINTS[name];
  return def.type === 'enum' ? `one of ${(def.enumValues ?? []).join(', ')}` : TYPE_HINTS[def.type];
}

const BY_TYPE: Record<PresetDefinition['type'], (v: unknown, def: PresetDefinition) => boolean> = {
  string: (v) => typeof v === 'string' && v.length > 0 && v.length <= 1000,
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  date: isDate,
  datetime: (v) => typeof v === 'string' && DATETIME.test(v) && !Number.isNaN(Date.parse(v)),
  enum: (v, def) => typeof v === 'string' && (def.enumValues ?? []).includes(v),
  array: (v) => Array.isArray(v),
};

/** Whether a stored value has the type and form the listing promises; if not, it is unavailable. */
export function isWellFormed(name: string, value: unknown): boolean {
  const def = presetDefinition(name);
  if (!def) return false;
  return BY_TYPE[def.type](value, def) && (BY_NAME[name]?.(value) ?? true);
}

/** Where a value that no credential can carry is set instead, for presets read from the user record. */
const FROM_THE_USER: Partial<Record<string, string>> = {
  service_uuid: 'is the user’s own id, made when the user is created',
  wallet_address: 'comes from the user’s wallets: give a wallet instead',
  primary_wallet_address: 'comes from the user’s primary wallet: give a wallet instead',
  palm_verified: 'comes from the user’s palm verification: set it on the user instead',
};

/**
 * Why a preset cannot be stored as a credential claim, or undefined when it can: a derived
 * preset is computed from its parent field (stored, it would never be served), and the user-record
 * presets come from the user, not from credentials.
 */
export function storedClaimProblem(name: string): string | undefined {
  const preset = presetDefinition(name);
  if (!preset) return 'is not a preset';
  if (preset.derived) return `is derived from ${preset.parentField}: give ${preset.parentField} instead`;
  return FROM_THE_USER[name];
}
