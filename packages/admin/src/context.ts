import type { Db } from '@svc/db';
import type { Environment } from '@svc/secrets';
import type { KeyEncryption, KeyService } from '@svc/signing-keys';

/** A Prisma client, or the transaction client handed out by `$transaction`. */
export type DbClient = Db | Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface AdminContext {
  db: DbClient;
  now: () => Date;
  /** Which environment's database this is: the sandbox marks the ids, secrets and keys it makes with `sbx_`. Default production. */
  environment?: Environment;
  /** Seals each service's signing keys at rest; unset: built from the environment (IDP_SIGNING_KEY_KEK, ISSUER_SIGNING_KEY_KEK). */
  keys?: Partial<Record<KeyService, KeyEncryption>>;
  /** The identity provider's CREDENTIAL_ISSUER_CLIENT_ID, if set: revoking a wallet's approval, or changing the data behind its credentials, tells the credential issuer (wallet_approval.*). */
  credentialIssuerClientId?: string;
  /**
   * The platform maximum of an API key's limits: creating or re-limiting a key above it is refused.
   * The admin CLI and the identity provider's developer API always set it (from API_KEY_MAX_*);
   * unset (scripts, tests), only the database's bound applies. The services hold every key to it
   * anyway when they enforce limits.
   */
  apiKeyMaxLimits?: { hourly: number; burst: number };
}

/**
 * Runs `work` atomically. Inside an outer transaction (seeding runs whole in one) it joins it,
 * since Prisma's transaction clients cannot open another.
 */
export async function inTransaction<T>(ctx: AdminContext, work: (tx: AdminContext) => Promise<T>): Promise<T> {
  if (!('$transaction' in ctx.db)) return work(ctx);
  return (ctx.db as Db).$transaction((tx) => work({ ...ctx, db: tx }), { timeout: 30_000, maxWait: 10_000 });
}
