import { describe, expect, it } from '@jest/globals';
import { isPresetName, PRESET_NAMES } from '../src/index.js';

describe('preset names', () => {
  it('lists the 42 presets of the spec once each', () => {
    expect(PRESET_NAMES).toHaveLength(42);
    expect(new Set(PRESET_NAMES).size).toBe(42);
    expect(PRESET_NAMES.filter((n) => /^provider_[a-g]_connected$/.test(n))).toHaveLength(7);
  });

  it('knows its own names only, including inherited object keys', () => {
    expect(isPresetName('age_over_18')).toBe(true);
    expect(isPresetName('constructor')).toBe(false);
    expect(isPresetName('AGE')).toBe(false);
  });
});
