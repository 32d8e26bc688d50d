import { createCipheriv, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { deriveKey, isPairwiseUserId, pairwiseCandidates, pairwiseUserId } from '../src/index.js';

const SECRET = 'pairwise-test-secret-5f1c9a7e3b2d8c6a4e0f1b3d';
const [orgA, orgB] = [randomUUID(), randomUUID()];

describe('pairwise user ids', () => {
  it('gives each organization its own stable version-8 UUID for one user', () => {
    const user = randomUUID();
    const a = pairwiseUserId(SECRET, orgA, user);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pairwiseUserId(SECRET, orgA, user)).toBe(a);
    expect(pairwiseUserId(SECRET, orgA.toUpperCase(), user.toUpperCase())).toBe(a);
    expect(pairwiseUserId(SECRET, orgB, user)).not.toBe(a);
    expect(pairwiseUserId('another-secret-1a2b3c4d5e6f7a8b9c0d1e2f', orgA, user)).not.toBe(a);
    expect(isPairwiseUserId(a)).toBe(true);
    expect(isPairwiseUserId(user)).toBe(false);
  });

  it('maps back to the user within the organization only', () => {
    for (let i = 0; i < 50; i++) {
      const user = randomUUID();
      expect(pairwiseCandidates(SECRET, orgA, pairwiseUserId(SECRET, orgA, user))).toContain(user);
      expect(pairwiseCandidates(SECRET, orgA, pairwiseUserId(SECRET, orgB, user))).not.toContain(user);
    }
    expect(pairwiseCandidates(SECRET, orgA, randomUUID())).toEqual([]);
  });

  it('answers as a cipher made afresh would, call after call and past the organizations it keeps', () => {
    // The one-block AES-256-ECB the ids are defined by, set up anew for each call.
    const fresh = (org: string, user: string) => {
      const block = createCipheriv('aes-256-ecb', deriveKey(SECRET, `pairwise-user-id:${org}`), null)
        .setAutoPadding(false)
        .update(Buffer.from(user.replace(/-/g, ''), 'hex'));
      block[6] = (block[6]! & 0x0f) | 0x80;
      block[8] = (block[8]! & 0x3f) | 0x80;
      return block.toString('hex');
    };
    const user = randomUUID();
    const orgs = Array.from({ length: 10_050 }, () => randomUUID());
    for (const org of [orgA, ...orgs, orgA, orgs[0]!]) expect(pairwiseUserId(SECRET, org, user).replace(/-/g, '')).toBe(fresh(org, user));
    for (let i = 0; i < 20; i++) expect(pairwiseCandidates(SECRET, orgs[0]!, pairwiseUserId(SECRET, orgs[0]!, user))).toContain(user);
  });
});
