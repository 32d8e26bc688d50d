import type { Db } from '@svc/db';
import type { KeyEncryption } from '@svc/signing-keys';

/** A Prisma client, or the transaction client handed out by `$transaction`. */
export type DbClient = Db | Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface AdminContext {
  db: DbClient;
  now: () => Date;
  /** Seals signing keys at rest; unset: built from SIGNING_KEY_KEK in the environment. */
  keys?: KeyEncryption;
}

/**
 * Runs `work` atomically. Inside an outer transaction (seeding runs whole in one) it joins it,
 * since Prisma's transaction clients cannot open another.
 */
export async function inTransaction<T>(ctx: AdminContext, work: (tx: AdminContext) => Promise<T>): Promise<T> {
  if (!('$transaction' in ctx.db)) return work(ctx);
  return (ctx.db as Db).$transaction((tx) => work({ ...ctx, db: tx }), { timeout: 30_000, maxWait: 10_000 });
}
