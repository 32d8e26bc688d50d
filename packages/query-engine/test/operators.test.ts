import { describe, expect, it } from '@jest/globals';
import { compileQuery, type ClaimLookup } from '../src/index.js';

const claims: Record<string, unknown> = {
  age: 36,
  age_text: '18',
  date_of_birth: '1990-04-12',
  kyc_last_updated_at: '2026-10-01T09:30:00.000Z',
  nationality: 'DE',
  kyc_passed: true,
  phone: null,
  social_accounts: [
    { provider: 'github', handle: 'alice', verified: true },
    { provider: 'x', handle: 'alice_x', verified: false },
  ],
  address_full: { street: 'Invalidenstraße 1', postal_code: '10115', country: 'DE' },
  tags: ['a', 'b', 3],
};
const lookup: ClaimLookup = (preset) => (Object.hasOwn(claims, preset) ? { value: claims[preset], credentialId: `cred-${preset}`, source: 'test' } : undefined);

function check(claim: string, operator: string, value?: unknown): boolean {
  const node = value === undefined ? { claim, operator } : { claim, operator, value };
  const result = compileQuery({ check: node }).evaluate(lookup);
  if (result.type !== 'predicate') throw new Error('expected a predicate');
  return result.passed;
}

describe('operators', () => {
  it.each([
    // ==, != : no coercion between types; dates compare as instants
    ['age', '==', 36, true],
    ['age', '==', '36', false],
    ['age_text', '==', 18, false],
    ['age_text', '==', '18', true],
    ['kyc_passed', '==', 1, false],
    ['kyc_passed', '==', true, true],
    ['phone', '==', null, true],
    ['date_of_birth', '==', '1990-04-12T00:00:00Z', true],
    ['address_full', '==', { street: 'Invalidenstraße 1', postal_code: '10115', country: 'DE' }, true],
    ['age', '!=', '36', true],
    ['age', '!=', 36, false],
    ['missing', '!=', 1, false],
    // ordering: numbers with numbers, dates with dates, nothing else
    ['age', '>', 18, true],
    ['age', '>=', 36, true],
    ['age', '<', 36, false],
    ['age', '<=', 36, true],
    ['age_text', '>', 1, false],
    ['age_text', '<', 100, false],
    ['date_of_birth', '<', '2008-01-01', true],
    ['date_of_birth', '>', '1990-04-12T00:00:01Z', false],
    ['kyc_last_updated_at', '>=', '2026-10-01', true],
    ['nationality', '>', '2000-01-01', false],
    ['missing', '<', 5, false],
    // in / notIn against arrays
    ['nationality', 'in', ['DE', 'FR'], true],
    ['nationality', 'in', ['de'], false],
    ['age', 'in', ['36'], false],
    ['nationality', 'notIn', ['FR', 'IT'], true],
    ['nationality', 'notIn', ['DE'], false],
    ['missing', 'notIn', ['DE'], false],
    // contains on strings and arrays
    ['nationality', 'contains', 'E', true],
    ['tags', 'contains', 'b', true],
    ['tags', 'contains', '3', false],
    ['tags', 'contains', 3, true],
    ['social_accounts', 'contains', { provider: 'x', handle: 'alice_x', verified: false }, true],
    ['age', 'contains', 3, false],
    // startsWith
    ['address_full.postal_code', 'startsWith', '101', true],
    ['age', 'startsWith', '3', false],
    // isDefined, with null as undefined
    ['nationality', 'isDefined', true, true],
    ['missing', 'isDefined', false, true],
    ['phone', 'isDefined', true, false],
    ['phone', 'isDefined', undefined, false],
    // matchRegex (RE2, search semantics)
    ['nationality', 'matchRegex', '^[A-Z]{2}$', true],
    ['social_accounts[0].handle', 'matchRegex', 'ice$', true],
    ['age', 'matchRegex', '36', false],
    // paths: own properties only
    ['social_accounts[1].provider', '==', 'x', true],
    ['social_accounts[5].provider', 'isDefined', false, true],
    ['address_full.constructor', 'isDefined', false, true],
    ['address_full.__proto__', 'isDefined', false, true],
    ['tags.length', 'isDefined', false, true],
  ])('%s %s %j → %s', (claim, operator, value, expected) => {
    expect(check(claim, operator, value)).toBe(expected);
  });

  it('finishes a catastrophic-backtracking pattern at once (RE2 is linear)', () => {
    const result = compileQuery({ check: { claim: 'attack', operator: 'matchRegex', value: '^(a+)+$' } }).evaluate(() => ({ value: `${'a'.repeat(5000)}b` }));
    expect(result.type === 'predicate' && result.passed).toBe(false);
  });
});
