import type { Db } from '@svc/db';
import { createHash } from 'node:crypto';
import { generateKey, KEY_ALGORITHMS, type KeyService, type NewKey } from './generate.js';
import type { KeyEncryption } from './key-encryption.js';

/** A Prisma client, or the transaction client handed out by `$transaction` (seeding runs in one). */
type DbClient = Db | Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface KeyStoreContext {
  db: DbClient;
  now: () => Date;
  keys: KeyEncryption;
}

/**
 * Adds a new signing key for each of the service's algorithms, its private half sealed, and
 * retires the current one of that algorithm. The identity provider's new keys are in the JWKS
 * from now and sign from `activateInSeconds` on (so cached key sets pick them up first); the old
 * ones stay published until every token they can have signed has expired. Issuer keys are
 * did:keys: credentials they signed keep verifying after rotation. `kid`: the first algorithm's.
 */
export async function rotateSigningKey(ctx: KeyStoreContext, service: KeyService, activateInSeconds = 0): Promise<{ kid: string; kids: string[] }> {
  ctx.keys.assertFor(service);
  const keys = await Promise.all(KEY_ALGORITHMS[service].map((algorithm) => generateKey(service, algorithm)));
  return keyChange(ctx, service, async (tx) => {
    // One instant for the change: each key made at it, and activating activateInSeconds after it.
    const now = ctx.now();
    const activatesAt = new Date(now.getTime() + activateInSeconds * 1000);
    // The first algorithm's key activates last: a replica of a release that knew one algorithm
    // only signs with the newest key it sees, and must keep seeing an RS256 one.
    for (const [i, key] of keys.entries()) await store(tx, ctx, service, key, new Date(activatesAt.getTime() - (i === 0 ? 0 : 1)), now);
    return { kid: keys[0]!.kid, kids: keys.map((k) => k.kid) };
  });
}

/**
 * The service's active key for each of its algorithms, each made first when there is none (a
 * fresh install's first start, or an algorithm added since). Several processes starting at once
 * make one key per algorithm between them, and all of them get it. `kid`: the first algorithm's.
 */
export async function ensureSigningKey(ctx: KeyStoreContext, service: KeyService): Promise<{ kid: string; created: boolean }> {
  ctx.keys.assertFor(service);
  let kid = '';
  let created = false;
  let firstActivatesAt: Date | undefined;
  for (const algorithm of KEY_ALGORITHMS[service]) {
    const activeKey = (db: DbClient) =>
      db.signingKey.findFirst({
        where: { service, algorithm, status: 'active' },
        orderBy: { activatesAt: 'desc' },
        select: { kid: true, activatesAt: true },
      });
    let made = await activeKey(ctx.db);
    if (!made) {
      // Made before the lock is taken: RSA key generation takes long enough to time the others out.
      const key = await generateKey(service, algorithm);
      // A key of a later algorithm activates just before the first one's: a replica of a release
      // that knew one algorithm only signs with the newest key it sees (a rolling upgrade).
      const activatesAt = firstActivatesAt ? new Date(Math.min(ctx.now().getTime(), firstActivatesAt.getTime() - 1)) : ctx.now();
      made = await keyChange(ctx, service, async (tx) => {
        const current = await activeKey(tx);
        if (current) return current;
        await store(tx, ctx, service, key, activatesAt);
        created = true;
        return { kid: key.kid, activatesAt };
      });
    }
    kid ||= made.kid;
    firstActivatesAt ??= made.activatesAt;
  }
  return { kid, created };
}

/**
 * Runs `work` in a transaction (the caller's, if `ctx.db` is one) holding the service's key lock:
 * without it, two rotations at once each retire the key they saw and both add theirs, leaving two
 * active keys (reproduced in test/rotate.test.ts).
 */
async function keyChange<T>(ctx: KeyStoreContext, service: KeyService, work: (tx: DbClient) => Promise<T>): Promise<T> {
  const locked = async (tx: DbClient) => {
    await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(${lockId(service)}::bigint)`;
    return work(tx);
  };
  return '$transaction' in ctx.db ? (ctx.db as Db).$transaction(locked) : locked(ctx.db);
}

const lockId = (service: KeyService) => createHash('sha256').update(`svc signing keys: ${service}`).digest().readBigInt64BE(0);

async function store(tx: DbClient, ctx: KeyStoreContext, service: KeyService, key: NewKey, activatesAt: Date, now = ctx.now()): Promise<void> {
  let publishUntil: Date | null = null;
  if (service === 'identity-provider') {
    const longest = await tx.application.aggregate({ _max: { accessTokenTtlSeconds: true } });
    // id tokens live as long as access tokens; a minute of slack for clock skew.
    const ttl = Math.max(longest._max.accessTokenTtlSeconds ?? 900, 900) + 60;
    publishUntil = new Date(activatesAt.getTime() + ttl * 1000);
  }
  await tx.signingKey.updateMany({
    where: { service, algorithm: key.algorithm, status: 'active' },
    data: { status: 'retiring', retiredAt: activatesAt, publishUntil },
  });
  await tx.signingKey.create({
    data: {
      kid: key.kid,
      algorithm: key.algorithm,
      publicKey: key.publicKey,
      privateKey: { ...ctx.keys.seal(key.privateKey, key.kid) },
      service,
      status: 'active',
      createdAt: now,
      activatesAt,
    },
  });
}

/**
 * Seals every stored private key of `service` under its current key-encryption key: rows from
 * before encryption, and rows wrapped by a previous KEK (after a KEK rotation). Returns how many changed.
 */
export async function rewrapSigningKeys(ctx: Pick<KeyStoreContext, 'db' | 'keys'>, service: KeyService): Promise<number> {
  ctx.keys.assertFor(service);
  const rows = await ctx.db.signingKey.findMany({ where: { service }, select: { kid: true, privateKey: true } });
  let changed = 0;
  for (const row of rows) {
    if (!ctx.keys.needsRewrap(row.privateKey)) continue;
    const sealed = ctx.keys.seal(ctx.keys.open<object>(row.privateKey, row.kid), row.kid);
    await ctx.db.signingKey.update({ where: { kid: row.kid }, data: { privateKey: { ...sealed } } });
    changed++;
  }
  return changed;
}
