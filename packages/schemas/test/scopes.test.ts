import { describe, expect, it } from '@jest/globals';
import { SCOPE_CATALOG, SCOPES, withImplied } from '../src/index.js';

describe('the scope catalog', () => {
  it('describes all 14 scopes once, with a category and a description', () => {
    expect(SCOPE_CATALOG.map((s) => s.id).sort()).toEqual([...SCOPES].sort());
    for (const s of SCOPE_CATALOG) {
      expect(s.description.length).toBeGreaterThan(10);
      expect(['identity', 'kyc', 'financial', 'profile']).toContain(s.category);
    }
  });

  it('adds implied scopes, in catalog order', () => {
    expect(withImplied(['financial:net_worth', 'openid'])).toEqual(['financial:read', 'financial:net_worth', 'openid']);
    expect(withImplied([])).toEqual([]);
  });
});
