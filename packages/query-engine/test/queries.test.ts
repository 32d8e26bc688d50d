import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { compileQuery, DEFAULT_LIMITS, QueryError, type ClaimLookup } from '../src/index.js';

const records: Record<string, { value: unknown; expiresAt?: string }> = {
  age: { value: 36, expiresAt: '2027-04-01T00:00:00.000Z' },
  nationality: { value: 'DE', expiresAt: '2027-01-01T00:00:00.000Z' },
  kyc_passed: { value: true },
  social_accounts: {
    value: [
      { provider: 'github', handle: 'alice' },
      { provider: 'x', handle: 'ax' },
    ],
  },
  address_full: { value: { street: 'Main 1', postal_code: '10115', country: 'DE' } },
};
const lookup: ClaimLookup = (p) => (records[p] ? { ...records[p], credentialId: `cred-${p}`, source: 'kyc' } : undefined);
const now = new Date('2026-11-22T12:00:00Z');

function passed(query: unknown, limits = DEFAULT_LIMITS): boolean {
  const r = compileQuery(query, limits).evaluate(lookup, now);
  if (r.type !== 'predicate') throw new Error('not a predicate');
  return r.passed;
}

function errorOf(query: unknown): { path: string; reason: string } {
  try {
    compileQuery(query);
  } catch (err) {
    if (err instanceof QueryError) return { path: err.path, reason: err.reason };
    throw err;
  }
  throw new Error('compiled');
}

describe('predicates', () => {
  it('answers a nested policy with evidence of every evaluated check and the earliest expiry', () => {
    const result = compileQuery({
      policy: {
        allOf: [{ claim: 'age', operator: '>=', value: 18 }, { check: { claim: 'kyc_passed', operator: '==', value: true } }],
        anyOf: [
          { claim: 'nationality', operator: 'in', value: ['DE', 'FR'] },
          { claim: 'missing_preset', operator: 'isDefined' },
        ],
        not: { claim: 'address_full.country', operator: '==', value: 'US' },
      },
    }).evaluate(lookup, now);
    expect(result).toEqual({
      type: 'predicate',
      passed: true,
      evaluatedAt: '2026-11-22T12:00:00.000Z',
      expiresAt: '2027-01-01T00:00:00.000Z',
      evidence: {
        claimsUsed: [
          { path: 'age', value: 36, credentialId: 'cred-age', source: 'kyc' },
          { path: 'kyc_passed', value: true, credentialId: 'cred-kyc_passed', source: 'kyc' },
          { path: 'nationality', value: 'DE', credentialId: 'cred-nationality', source: 'kyc' },
          { path: 'address_full.country', value: 'DE', credentialId: 'cred-address_full', source: 'kyc' },
        ],
        checkResults: [
          { claim: 'age', operator: '>=', expectedValue: 18, actualValue: 36, passed: true },
          { claim: 'kyc_passed', operator: '==', expectedValue: true, actualValue: true, passed: true },
          { claim: 'nationality', operator: 'in', expectedValue: ['DE', 'FR'], actualValue: 'DE', passed: true },
          { claim: 'address_full.country', operator: '==', expectedValue: 'US', actualValue: 'DE', passed: false },
        ],
      },
    });
  });

  it('short-circuits, but still lists every preset the query names (for scope checks)', () => {
    const compiled = compileQuery({
      policy: {
        anyOf: [
          { claim: 'kyc_passed', operator: '==', value: true },
          { claim: 'legal_name', operator: 'isDefined' },
        ],
        not: { claim: 'date_of_birth', operator: '>', value: '2010-01-01' },
      },
    });
    const result = compiled.evaluate(lookup, now);
    expect(result.type === 'predicate' && result.evidence.checkResults.map((c) => c.claim)).toEqual(['kyc_passed', 'date_of_birth']);
    expect(compiled.presets.sort()).toEqual(['date_of_birth', 'kyc_passed', 'legal_name']);
  });

  it('defines empty lists: allOf [] holds, anyOf [] does not', () => {
    expect(passed({ policy: { allOf: [] } })).toBe(true);
    expect(passed({ policy: { anyOf: [] } })).toBe(false);
    expect(passed({ policy: { allOf: [], anyOf: [] } })).toBe(false);
  });

  it('accepts nested policies bare or wrapped', () => {
    expect(
      passed({
        policy: {
          allOf: [
            {
              policy: {
                anyOf: [
                  { claim: 'age', operator: '>', value: 99 },
                  { claim: 'age', operator: '<', value: 99 },
                ],
              },
            },
            { not: { claim: 'age', operator: '==', value: 1 } },
          ],
        },
      }),
    ).toBe(true);
  });

  it('can skip evidence collection for callers that only need the answer', () => {
    const r = compileQuery({ check: { claim: 'age', operator: '>', value: 1 } }).evaluate(lookup, now, { evidence: false });
    expect(r.type === 'predicate' && r.evidence.checkResults).toEqual([]);
  });
});

describe('laws (property-based)', () => {
  const leaf = fc
    .record({
      claim: fc.constantFrom('age', 'nationality', 'kyc_passed', 'missing_one', 'address_full.country'),
      operator: fc.constantFrom('==', '!=', 'isDefined', 'in'),
      value: fc.oneof(fc.constant(36), fc.constant('DE'), fc.constant(true)),
    })
    .map((c) => (c.operator === 'in' ? { ...c, value: [c.value] } : c.operator === 'isDefined' ? { ...c, value: true } : c));
  const policy = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth: 4, depthIdentifier: 'policy', withCrossShrink: true }, leaf, tie('policy')),
    policy: fc.oneof(
      fc.record({ allOf: fc.array(tie('node'), { maxLength: 3 }) }),
      fc.record({ anyOf: fc.array(tie('node'), { maxLength: 3 }) }),
      fc.record({ not: tie('node') }),
    ),
  })).policy;

  // The laws concern meaning, not limits: evaluate them with room to nest.
  const roomy = { ...DEFAULT_LIMITS, maxDepth: 64, maxNodes: 10_000 };
  const holds = (query: unknown) => passed(query, roomy);

  it('not(not(p)) ≡ p', () => {
    fc.assert(fc.property(policy, (p) => holds({ policy: { not: { not: p } } }) === holds({ policy: p })));
  });

  it('allOf[p] ≡ p ≡ anyOf[p]', () => {
    fc.assert(
      fc.property(policy, (p) => {
        const v = holds({ policy: p });
        return holds({ policy: { allOf: [p] } }) === v && holds({ policy: { anyOf: [p] } }) === v;
      }),
    );
  });

  it('not(allOf[p, q]) ≡ anyOf[not p, not q]', () => {
    fc.assert(fc.property(policy, policy, (p, q) => holds({ policy: { not: { allOf: [p, q] } } }) === holds({ policy: { anyOf: [{ not: p }, { not: q }] } })));
  });
});

describe('projections', () => {
  it('applies at, at-path, pluck and pick, keyed by the claim as sent', () => {
    const result = compileQuery({
      projections: [
        { claim: 'nationality', lens: 'at' },
        { claim: 'address_full', lens: { pick: ['postal_code', 'country', 'absent'] } },
        { claim: 'social_accounts', lens: { pluck: 'provider' } },
        { claim: 'social_accounts[1]', lens: { at: 'handle' } },
        { claim: 'missing_preset', lens: 'at' },
      ],
    }).evaluate(lookup, now);
    expect(result).toMatchObject({
      type: 'projection',
      data: {
        nationality: 'DE',
        address_full: { postal_code: '10115', country: 'DE' },
        social_accounts: ['github', 'x'],
        'social_accounts[1]': 'ax',
        missing_preset: null,
      },
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
    expect(result.type === 'projection' && result.claimsUsed.map((c) => c.path)).toEqual([
      'nationality',
      'address_full',
      'social_accounts',
      'social_accounts[1]',
    ]);
  });

  it.each([
    [{ claim: 'nationality', lens: { pluck: 'x' } }, 'pluck needs a claim whose value is an array of objects'],
    [{ claim: 'age', lens: { pick: ['a'] } }, 'pick needs a claim whose value is an object'],
  ])('names the projection whose lens does not fit: %j', (projection, reason) => {
    expect(() => compileQuery({ projections: [{ claim: 'kyc_passed', lens: 'at' }, projection] }).evaluate(lookup, now)).toThrow(
      new QueryError('query.projections[1].lens', reason),
    );
  });
});

describe('malformed queries', () => {
  const deep = (n: number): unknown => (n === 0 ? { claim: 'age', operator: '>', value: 1 } : { not: deep(n - 1) });
  it.each([
    [null, 'query', /exactly one of|must be an object/],
    [{}, 'query', /exactly one of check, policy or projections/],
    [{ check: {}, policy: {} }, 'query', /exactly one/],
    [{ check: { claim: 'age', operator: '~=', value: 1 } }, 'query.check.operator', /must be one of/],
    [{ check: { claim: 'Age!', operator: '==', value: 1 } }, 'query.check.claim', /not a preset name/],
    [{ check: { claim: 'age', operator: '==' } }, 'query.check.value', /is required/],
    [{ check: { claim: 'age', operator: '>', value: '18' } }, 'query.check.value', /number or an ISO 8601 date/],
    [{ check: { claim: 'age', operator: 'in', value: 18 } }, 'query.check.value', /must be an array/],
    [{ check: { claim: 'age', operator: 'isDefined', value: 'yes' } }, 'query.check.value', /true or false/],
    [{ check: { claim: 'age', operator: 'matchRegex', value: '(?=a)' } }, 'query.check.value', /RE2 syntax/],
    [{ check: { claim: 'age', operator: 'matchRegex', value: 'a'.repeat(300) } }, 'query.check.value', /at most 256/],
    [{ check: { claim: 'age', operator: '==', value: 1, extra: 1 } }, 'query.check.extra', /not allowed/],
    [{ policy: { allOf: [{ claim: 'age', operator: '>', value: 1 }, { anyOf: 'x' }] } }, 'query.policy.allOf[1].anyOf', /must be an array/],
    [{ policy: { allOf: [{ anyOf: [{ claim: 'age', operator: 'nope' }] }] } }, 'query.policy.allOf[0].anyOf[0].operator', /must be one of/],
    [{ policy: {} }, 'query.policy', /at least one of/],
    [{ policy: deep(9) }, 'query.policy.not.not.not.not.not.not.not.not', /deeper than 8/],
    [{ policy: { allOf: Array.from({ length: 70 }, () => ({ claim: 'age', operator: '>', value: 1 })) } }, 'query.policy.allOf[63]', /more than 64 nodes/],
    [{ projections: [] }, 'query.projections', /non-empty/],
    [{ projections: [{ claim: 'age', lens: 'zoom' }] }, 'query.projections[0].lens', /must be "at"/],
    [
      {
        projections: [
          { claim: 'age', lens: 'at' },
          { claim: 'age', lens: 'at' },
        ],
      },
      'query.projections[1].claim',
      /projected twice/,
    ],
  ])('%j → 400 at %s', (query, path, reason) => {
    const error = errorOf(query);
    expect(error.path).toBe(path);
    expect(error.reason).toMatch(reason);
  });
});
