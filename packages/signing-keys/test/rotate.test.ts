import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { testDb, testSigningKeyKek } from '@svc/testkit';
import { ensureSigningKey, KeyEncryption, rotateSigningKey } from '../src/index.js';

// This run's own database (jest-preset-db): no other suite's keys in it.
const dbs = [testDb(), testDb(), testDb(), testDb()];
const ctx = (i: number) => ({
  db: dbs[i]!,
  now: () => new Date(),
  keys: new KeyEncryption('credential-issuer', { current: testSigningKeyKek('credential-issuer') }),
});
// The issuer signs with two algorithms (BBS for bbs-2023, ES256 for SD-JWT VCs): one active key each.
const active = () => dbs[0]!.signingKey.findMany({ where: { service: 'credential-issuer', status: 'active' }, orderBy: { algorithm: 'asc' } });
const ALGORITHMS = ['Bls12381G2', 'ES256'];

beforeEach(async () => {
  await dbs[0]!.signingKey.deleteMany({ where: { service: 'credential-issuer' } });
});
afterAll(async () => {
  await Promise.all(dbs.map((db) => db.$disconnect()));
});

describe('signing keys under concurrent change', () => {
  it('first start in several processes at once: one key per algorithm is made, and every process gets it', async () => {
    const results = await Promise.all(dbs.map((_, i) => ensureSigningKey(ctx(i), 'credential-issuer')));
    const keys = await active();
    expect(keys.map((k) => k.algorithm)).toEqual(ALGORITHMS);
    expect(results.map((r) => r.kid)).toEqual(dbs.map(() => keys[0]!.kid));
    // One process may make one algorithm's key and another the other's: each key made once, none twice.
    expect(results.some((r) => r.created)).toBe(true);
    expect(await dbs[0]!.signingKey.count({ where: { service: 'credential-issuer' } })).toBe(ALGORITHMS.length);
  });

  it('rotations at the same moment leave exactly one active key per algorithm, the others retiring', async () => {
    await ensureSigningKey(ctx(0), 'credential-issuer');
    const rotated = await Promise.all(dbs.map((_, i) => rotateSigningKey(ctx(i), 'credential-issuer')));
    const keys = await active();
    expect(keys.map((k) => k.algorithm)).toEqual(ALGORITHMS);
    expect(rotated.flatMap((r) => r.kids)).toEqual(expect.arrayContaining(keys.map((k) => k.kid)));
    expect(await dbs[0]!.signingKey.count({ where: { service: 'credential-issuer', status: 'retiring' } })).toBe(dbs.length * ALGORITHMS.length);
  });

  it('makes nothing when a key is active', async () => {
    const first = await ensureSigningKey(ctx(0), 'credential-issuer');
    await expect(ensureSigningKey(ctx(1), 'credential-issuer')).resolves.toEqual({ kid: first.kid, created: false });
    expect(await dbs[0]!.signingKey.count({ where: { service: 'credential-issuer' } })).toBe(ALGORITHMS.length);
  });
});
