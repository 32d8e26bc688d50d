import { describe, expect, it, jest } from '@jest/globals';

// The CSPRNG spied on: tokens are drawn from one filled buffer, not a fresh one each.
const crypto = await import('node:crypto');
const randomFillSync = jest.fn(crypto.randomFillSync);
jest.unstable_mockModule('node:crypto', () => ({ ...crypto, default: crypto, randomFillSync }));
const { randomBase62 } = await import('../src/random.js');

describe('randomBase62', () => {
  it('draws many tokens from one fill of the CSPRNG, never the same one twice', () => {
    const tokens = Array.from({ length: 40 }, () => randomBase62(43));
    expect(randomFillSync).toHaveBeenCalledTimes(1);
    expect(new Set(tokens).size).toBe(40);
    for (const t of tokens) expect(t).toMatch(/^[0-9A-Za-z]{43}$/);
  });

  it('refills once the buffer is spent', () => {
    randomFillSync.mockClear();
    Array.from({ length: 200 }, () => randomBase62(43));
    expect(randomFillSync.mock.calls.length).toBeGreaterThanOrEqual(2);
  });
});
