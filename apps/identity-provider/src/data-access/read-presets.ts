import { isPresetName, presetDefinition, resolvePreset, type PresetName, type Resolution, type SubjectData } from '@svc/presets';
import type { PresetResult } from '@svc/schemas';
import { PresetError } from '../errors.js';

/** What a data request may read: the token's scopes and the end of the authorization's data window. */
export interface DataAccess {
  scopes: readonly string[];
  windowEndsAt: Date;
}

const earlier = (a: Date, b: Date | undefined) => (b && b < a ? b : a);

/** Refusals that do not need the user's data: an unknown name, or one the token's scopes do not cover. */
export function checkPresetAccess(name: string, access: DataAccess): PresetError | undefined {
  if (!isPresetName(name)) return new PresetError('E4044', `There is no preset named "${name}"`, { context: { preset: name } });
  const scope = presetDefinition(name)!.scope;
  if (!access.scopes.includes(scope)) {
    return new PresetError('E4003', `Reading ${name} needs the ${scope} scope, which this token does not carry`, {
      context: { preset: name, required_scope: scope },
    });
  }
  return undefined;
}

const UNAVAILABLE = {
  pending: 'the verification behind it is still pending',
  revoked: 'the verification behind it was revoked',
  incomplete: 'the user has no verified data for it',
} as const;

/**
 * One preset's answer: a result (valid; expired credential; malformed stored value) or E4004 when
 * its verification is pending, revoked or incomplete. expires_at is the earlier of the data
 * window's end and the backing credential's expiry.
 */
export function presetOutcome(resolution: Resolution, access: DataAccess): PresetResult | PresetError {
  const { preset, reason } = resolution;
  if (reason === 'pending' || reason === 'revoked' || reason === 'incomplete') {
    return new PresetError('E4004', `${preset} is unavailable: ${UNAVAILABLE[reason]}`, { subcode: `verification_${reason}`, context: { preset } });
  }
  return {
    preset,
    value: resolution.value,
    status: resolution.status,
    expires_at: earlier(access.windowEndsAt, resolution.expiresAt).toISOString(),
    ...(resolution.verifiedAt ? { verified_at: resolution.verifiedAt.toISOString() } : {}),
    ...(resolution.evidence ? { evidence: resolution.evidence } : {}),
  };
}

/**
 * A batch: every distinct name answered once, in the order asked, as a result or an error.
 * The user's data is loaded only when some name passes the access checks.
 */
export async function readPresets(names: readonly string[], access: DataAccess, subject: () => Promise<SubjectData>, now: Date) {
  const results: PresetResult[] = [];
  const errors: { preset: string; error: ReturnType<PresetError['toBody']> }[] = [];
  let data: SubjectData | undefined;
  for (const name of new Set(names)) {
    let outcome: PresetResult | PresetError | undefined = checkPresetAccess(name, access);
    if (!outcome) {
      data ??= await subject();
      outcome = presetOutcome(resolvePreset(name as PresetName, data, now), access);
    }
    if (outcome instanceof PresetError) errors.push({ preset: name, error: outcome.toBody() });
    else results.push(outcome);
  }
  return { results, errors };
}
