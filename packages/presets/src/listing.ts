import type { PresetInfo } from '@svc/schemas';
import { PRESETS, type PresetDefinition } from './definitions.js';

/** A preset as `GET /v2/presets` lists it. */
export function presetInfo(def: PresetDefinition): PresetInfo {
  return {
    name: def.name,
    scope: def.scope,
    category: def.category,
    description: def.description,
    consentText: def.consentText,
    type: def.type,
    sensitivity: def.sensitivity,
    derived: def.derived,
    ...(def.parentField ? { parentField: def.parentField } : {}),
    format: def.format,
    ...(def.enumValues ? { enumValues: [...def.enumValues] } : {}),
  };
}

export const PRESET_LISTING: readonly PresetInfo[] = PRESETS.map(presetInfo);

/**
 * The credential claims needed to resolve every preset `scopes` cover: each readable preset and the
 * parent of each readable derived one (age needs date_of_birth, even without its scope).
 */
export function claimsNeededFor(scopes: readonly string[]): Set<string> {
  const needed = new Set<string>();
  for (const p of PRESETS) {
    if (!scopes.includes(p.scope)) continue;
    needed.add(p.name);
    if (p.parentField) needed.add(p.parentField);
  }
  return needed;
}
