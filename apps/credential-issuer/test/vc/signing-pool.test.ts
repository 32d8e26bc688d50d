// The signing pool under attack, with a stand-in thread whose jobs take as long as the test says
// (test/vc/fixtures/signing-pool-worker.js): `sign` answers at once, `verify` after the given
// milliseconds, `derive` never (a job stuck in pure JavaScript).
import { afterEach, describe, expect, it } from '@jest/globals';
import { SigningPool, type SigningPoolOptions } from '../../src/vc/signing-pool.js';

const pools: SigningPool[] = [];
const poolOf = (options: Partial<SigningPoolOptions> = {}) => {
  const pool = new SigningPool({
    size: 1,
    queueLimit: 4,
    perTenant: 4,
    jobTimeoutMs: 10_000,
    workerUrl: new URL('./fixtures/signing-pool-worker.js', import.meta.url),
    ...options,
  });
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
const settled = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (err: { status?: number; code?: string }) => ({ ok: false as const, status: err.status, code: err.code }),
  );

describe('a job past its deadline', () => {
  it('fails with 503 signing_timeout, and its thread is terminated and replaced, so the next job runs', async () => {
    const pool = poolOf({ jobTimeoutMs: 300 });
    const first = (await pool.run<{ threadId: number }>('verify', 0, 'a')).threadId;
    const started = Date.now();
    const stuck = settled(pool.run('derive', {}, 'a'));
    const next = pool.run<{ threadId: number }>('verify', 0, 'b');
    expect(await stuck).toEqual({ ok: false, status: 503, code: 'signing_timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
    // The job behind it ran on a new thread: the stuck one was terminated, not left spinning.
    const replaced = (await next).threadId;
    expect(replaced).not.toBe(first);
    expect(pool.timedOut).toBe(1);
    expect(pool.pending).toBe(0);
  });

  it('counts from when the thread is ready, not while it loads its libraries', async () => {
    const pool = poolOf({ jobTimeoutMs: 400 });
    // Sent at once: the fresh thread is still starting.
    expect(await pool.run('verify', 150, 'a')).toMatchObject({ threadId: expect.any(Number) });
  });
});

describe('fair shares per tenant (an organization, whatever its keys)', () => {
  it('holds one tenant to its share of waiting and running jobs; another tenant’s job still goes next', async () => {
    const pool = poolOf({ queueLimit: 4, perTenant: 2 });
    const flood = Array.from({ length: 10 }, () => settled(pool.run('verify', 200, 'organization:a')));
    const other = settled(pool.run('verify', 0, 'organization:b'));
    const results = await Promise.all(flood);
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.status === 503 && r.code === 'signing_queue_full')).toBe(true);
    expect((await other).ok).toBe(true);
  });

  it('when the queue is full, a tenant under its share takes the place of the tenant holding the most', async () => {
    // A tenant share as large as the queue: without eviction one tenant would fill it.
    const pool = poolOf({ queueLimit: 4, perTenant: 8 });
    const order: string[] = [];
    const track = (tenant: string, p: Promise<unknown>) =>
      settled(
        p.then((v) => {
          order.push(tenant);
          return v;
        }),
      );
    const flood = Array.from({ length: 5 }, () => track('a', pool.run('verify', 100, 'organization:a')));
    const other = track('b', pool.run('verify', 0, 'organization:b'));
    const results = await Promise.all(flood);
    expect(await other).toMatchObject({ ok: true });
    // a: one running, four waiting (the queue full); its newest waiting place went to b, which
    // then took turns with a: it ran after a's running job and the one a's turn came first for.
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    expect(results[4]).toEqual({ ok: false, status: 503, code: 'signing_queue_full' });
    expect(order.indexOf('b')).toBeLessThanOrEqual(2);
    expect(order).toHaveLength(5);
  });
});
