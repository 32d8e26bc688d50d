import { describe, expect, it, jest } from '@jest/globals';
import { pairwiseUserId } from '@svc/secrets';
import { PairwiseIds } from '../../src/services/pairwise-ids.js';

const SECRET = 'a pairwise secret of at least thirty-two characters';
const ORG = '0b5c4f0e-2f43-4e5a-9c55-0d2f1c7a9e11';
const OTHER_ORG = '7d1e8a42-5b6c-4d3e-8f90-a1b2c3d4e5f6';
const owner = () => ({ userId: '3e426adb-668f-4f44-a087-e853c8d5489e', palmVerified: true });

describe('PairwiseIds', () => {
  it('answers what pairwiseUserId answers', () => {
    const ids = new PairwiseIds(SECRET);
    const wallet = owner();
    expect(ids.of(ORG, wallet)).toBe(pairwiseUserId(SECRET, ORG, wallet.userId));
    expect(ids.of(OTHER_ORG, wallet)).toBe(pairwiseUserId(SECRET, OTHER_ORG, wallet.userId));
  });

  it('derives an organization’s id for a cached owner once, not on every request', () => {
    const derive = jest.fn(pairwiseUserId);
    const ids = new PairwiseIds(SECRET, derive);
    const wallet = owner();
    const first = ids.of(ORG, wallet);
    expect(ids.of(ORG, wallet)).toBe(first);
    expect(ids.of(ORG, wallet)).toBe(first);
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it('derives again for another organization, and for an owner loaded afresh', () => {
    const derive = jest.fn(pairwiseUserId);
    const ids = new PairwiseIds(SECRET, derive);
    const wallet = owner();
    const mine = ids.of(ORG, wallet);
    const theirs = ids.of(OTHER_ORG, wallet);
    expect(theirs).not.toBe(mine);
    // Asked by the first organization again, the id is its own, not the last one derived.
    expect(ids.of(ORG, wallet)).toBe(mine);
    // The wallet cache's next load of the same owner is a new object: nothing is carried over.
    expect(ids.of(ORG, owner())).toBe(mine);
    expect(derive).toHaveBeenCalledTimes(4);
  });
});
