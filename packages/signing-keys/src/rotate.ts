import type { Db } from '@svc/db';
import { generateKey, type KeyService } from './generate.js';
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
  const now = ctx.now();
  const activatesAt = new Date(now.getTime() + activateInSeconds * 1000);
  const atomically = <T>(work: (tx: DbClient) => Promise<T>) => ('$transaction' in ctx.db ? (ctx.db as Db).$transaction((tx) => work(tx)) : work(ctx.db));
  await atomically(async (tx) => {
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
  });
  return { kid: key.kid };
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
