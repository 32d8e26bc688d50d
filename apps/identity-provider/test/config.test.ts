import { describe, expect, it } from '@jest/globals';
import { buildIdp } from './helpers.js';

describe('IDP_SECRET must be a real secret', () => {
  it.each(['change-me-to-32-or-more-random-characters', 'x'.repeat(40)])('refuses %s at start-up', (secret) => {
    expect(() => buildIdp({ IDP_SECRET: secret })).toThrow(/IDP_SECRET/);
  });
});
