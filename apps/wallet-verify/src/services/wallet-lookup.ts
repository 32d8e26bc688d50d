import type { Db } from '@svc/db';
import { LocalTtlCache } from '@svc/kv';

export interface WalletOwner {
  userId: string;
  palmVerified: boolean;
}

/**
 * Who owns a wallet, cached in memory for `ttlSeconds`: a palm status change or a wallet's
 * removal is visible on every replica within that bound. Misses are cached too, so unknown
 * addresses cannot be used to load the database.
 */
export class WalletLookup {
  private readonly cache: LocalTtlCache<WalletOwner | null>;

  constructor(
    private readonly db: Db,
    ttlSeconds: number,
  ) {
    this.cache = new LocalTtlCache(ttlSeconds * 1000, 50_000);
  }

  find(address: string): Promise<WalletOwner | null> {
    return this.cache.getOrLoad(address, async () => {
      const wallet = await this.db.wallet.findUnique({
        where: { address },
        select: { userId: true, user: { select: { palmVerified: true } } },
      });
      return wallet ? { userId: wallet.userId, palmVerified: wallet.user.palmVerified } : null;
    });
  }
}
