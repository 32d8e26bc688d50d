import { presetDefinition } from './definitions.js';
import type { PresetName } from './names.js';
import { isWellFormed } from './value-checks.js';

export type PresetStatus = 'valid' | 'pending' | 'expired' | 'unavailable';

export interface StoredCredential {
  id: string;
  source: string;
  claims: unknown;
  status: 'valid' | 'pending' | 'revoked';
  verifiedAt: Date;
  expiresAt: Date | null;
}

/** Everything a preset can be resolved from: the user record, wallets and credentials. */
export interface SubjectData {
  user: { serviceId: string; palmVerified: boolean; palmVerifiedAt: Date | null; createdAt: Date };
  wallets: { address: string; isPrimary: boolean }[];
  credentials: StoredCredential[];
}

/**
 * incomplete: no credential carries the item; pending / revoked: the backing verification is;
 * expired: the backing credential has expired; malformed: the stored value is not of the listed form.
 */
export type UnavailableReason = 'incomplete' | 'pending' | 'revoked' | 'expired' | 'malformed';

export interface Resolution {
  preset: PresetName;
  value: unknown;
  status: PresetStatus;
  verifiedAt?: Date;
  /** The backing credential's expiry, when it has one. */
  expiresAt?: Date;
  /** Why the status is not valid. */
  reason?: UnavailableReason;
  evidence?: { source: string; credential_id?: string; derived_from?: string };
}

const unavailable = (preset: PresetName, reason: UnavailableReason): Resolution => ({ preset, value: null, status: 'unavailable', reason });

function fromCredentials(preset: PresetName, data: SubjectData, now: Date): Resolution {
  const holding = data.credentials.filter(
    (c) => typeof c.claims === 'object' && c.claims !== null && !Array.isArray(c.claims) && Object.hasOwn(c.claims, preset),
  );
  if (holding.length === 0) return unavailable(preset, 'incomplete');
  const byRecency = [...holding].sort((a, b) => b.verifiedAt.getTime() - a.verifiedAt.getTime());
  const live = byRecency.find((c) => c.status === 'valid' && (!c.expiresAt || c.expiresAt > now));
  const chosen = live ?? byRecency.find((c) => c.status === 'valid') ?? byRecency[0]!;
  const value = (chosen.claims as Record<string, unknown>)[preset];
  const base = {
    preset,
    verifiedAt: chosen.verifiedAt,
    ...(chosen.expiresAt ? { expiresAt: chosen.expiresAt } : {}),
    evidence: { source: chosen.source, credential_id: chosen.id },
  };
  if (!live) {
    if (chosen.status === 'valid') return { ...base, value: null, status: 'expired', reason: 'expired' };
    return { ...base, value: null, status: 'pending', reason: chosen.status === 'revoked' ? 'revoked' : 'pending' };
  }
  if (!isWellFormed(preset, value)) return { ...base, value: null, status: 'unavailable', reason: 'malformed' };
  return { ...base, value, status: 'valid' };
}

function fromUser(preset: PresetName, data: SubjectData): Resolution {
  const primary = data.wallets.find((w) => w.isPrimary) ?? data.wallets[0];
  switch (preset) {
    case 'service_uuid':
      return { preset, value: data.user.serviceId, status: 'valid', verifiedAt: data.user.createdAt, evidence: { source: 'account' } };
    case 'palm_verified':
      return {
        preset,
        value: data.user.palmVerified,
        status: 'valid',
        ...(data.user.palmVerifiedAt ? { verifiedAt: data.user.palmVerifiedAt } : {}),
        evidence: { source: 'palm_verification' },
      };
    case 'wallet_address':
    case 'primary_wallet_address':
      return primary ? { preset, value: primary.address, status: 'valid', evidence: { source: 'wallets' } } : unavailable(preset, 'incomplete');
    default:
      return unavailable(preset, 'incomplete');
  }
}

/** Whole years from `birth` (YYYY-MM-DD) to `now`, in UTC. */
export function ageAt(birth: string, now: Date): number {
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

const DERIVE: Partial<Record<PresetName, (parent: unknown, now: Date) => unknown>> = {
  age: (dob, now) => ageAt(dob as string, now),
  age_over_18: (dob, now) => ageAt(dob as string, now) >= 18,
  age_over_21: (dob, now) => ageAt(dob as string, now) >= 21,
  net_worth_above_10k: (n) => (n as number) > 10_000,
  net_worth_above_100k: (n) => (n as number) > 100_000,
  is_human: (palm) => palm === true,
};

/**
 * Resolves one preset for one user at `now`: value, status, when it was verified, when its
 * backing credential expires, and where it came from. Derived presets follow their parent
 * (age is computed at `now`); a malformed stored value is `unavailable`, never a crash.
 */
export function resolvePreset(preset: PresetName, data: SubjectData, now: Date): Resolution {
  const def = presetDefinition(preset);
  if (!def) return unavailable(preset, 'incomplete');
  if (def.origin === 'user') return fromUser(preset, data);
  if (def.origin === 'credential') return fromCredentials(preset, data, now);
  const parent = resolvePreset(def.parentField!, data, now);
  if (parent.status !== 'valid') return { ...parent, preset };
  const value = DERIVE[preset]!(parent.value, now);
  return { ...parent, preset, value, evidence: { ...parent.evidence!, derived_from: def.parentField! } };
}
