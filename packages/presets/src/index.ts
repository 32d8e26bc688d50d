export { PRESET_NAMES, isPresetName, type PresetName } from './names.js';
export {
  PRESETS,
  presetDefinition,
  RESIDENCY_REGIONS,
  type PresetDefinition,
  type PresetType,
  type Sensitivity,
  type Category,
  type Origin,
} from './definitions.js';
export { formatHint, isWellFormed, storedClaimProblem } from './value-checks.js';
export { resolvePreset, ageAt, type Resolution, type PresetStatus, type UnavailableReason, type SubjectData, type StoredCredential } from './resolve.js';
export { presetInfo, PRESET_LISTING, claimsNeededFor } from './listing.js';
