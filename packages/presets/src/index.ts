export { PRESET_NAMES, isPresetName, type PresetName } from './names.js';
