import type { Db } from '@svc/db';
import { createHash } from 'node:crypto';
import { generateKey, type KeyService, type NewKey } from './generate.js';
import type { KeyEncryption } from './key-encryption.js';

/** A Prisma client, or the transaction client handed out by `$transaction` (seeding runs in one). */
type DbClient = Db | Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface KeyStoreContext {
  db: DbClient;
  now: () => Date;
  keys: KeyEncryption;
}

/**
 * Adds a new signing key, its private half sealed, and retires the current one. The identity
 * provider's new key is in the JWKS from now and signs from `activateInSeconds` on (so cached key
 * sets pick it up first); the old key stays published until every token it can have signed has
 * expired. Issuer keys are did:keys: credentials they signed keep verifying after rotation.
 */
export async function rotateSigningKey(ctx: KeyStoreContext, service: KeyService, activateInSeconds = 0): Promise<{ kid: string }> {
  const key = await generateKey(service);
  return keyChange(ctx, service, async (tx) => {
    await store(tx, ctx, service, key, activateInSeconds);
    return { kid: key.kid };
  });
}

/**
 * The service's active key, made first when it has none (a fresh install's first start). Several
 * processes starting at once make one key between them, and all of them get it.
 */
export async function ensureSigningKey(ctx: KeyStoreContext, service: KeyService): Promise<{ kid: string; created: boolean }> {
  const activeKey = (db: DbClient) =>
    db.signingKey.findFirst({ where: { service, status: 'active' }, orderBy: { activatesAt: 'desc' }, select: { kid: true } });
  const seen = await activeKey(ctx.db);
  if (seen) return { kid: seen.kid, created: false };
  // Made before the lock is taken: RSA key generation takes long enough to time the others out.
  const key = await generateKey(service);
  return keyChange(ctx, service, async (tx) => {
    const current = await activeKey(tx);
    if (current) return { kid: current.kid, created: false };
    await store(tx, ctx, service, key, 0);
    return { kid: key.kid, created: true };
  });
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

async function store(tx: DbClient, ctx: KeyStoreContext, service: KeyService, key: NewKey, activateInSeconds: number): Promise<void> {
  const now = ctx.now();
  const activatesAt = new Date(now.getTime() + activateInSeconds * 1000);
  let publishUntil: Date | null = null;
  if (service === 'identity-provider') {
    const longest = await tx.application.aggregate({ _max: { accessTokenTtlSeconds: true } });
    // id tokens live as long as access tokens; a minute of slack for clock skew.
    const ttl = Math.max(longest._max.accessTokenTtlSeconds ?? 900, 900) + 60;
    publishUntil = new Date(activatesAt.getTime() + ttl * 1000);
  }
  await tx.signingKey.updateMany({ where: { service, status: 'active' }, data: { status: 'retiring', retiredAt: activatesAt, publishUntil } });
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
 * Seals every stored private key of `service` under the current key-encryption key: rows from before
 * encryption, and rows wrapped by a previous KEK (after a KEK rotation). Returns how many changed.
 */
export async function rewrapSigningKeys(ctx: Pick<KeyStoreContext, 'db' | 'keys'>, service: KeyService): Promise<number> {
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
