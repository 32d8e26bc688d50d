import type { Db } from '@svc/db';
import type { Logger } from '@svc/http';

/** How long a spent or expired offer is kept after its last use could have been (for support questions). */
export const OFFER_KEPT_MS = 3_600_000;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Drops offers that can no longer be used: past their expiry and past their access token's, by
 * an hour. Their claims (a country of residence, say) are kept no longer than the offer needs them.
 */
export async function purgeOffers(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - OFFER_KEPT_MS);
  const { count } = await db.credentialOffer.deleteMany({
    where: { expiresAt: { lt: cutoff }, OR: [{ accessTokenExpiresAt: null }, { accessTokenExpiresAt: { lt: cutoff } }] },
  });
  return count;
}

/** Purges every ten minutes on every replica (each a cheap indexed delete); returns the stop. */
export function startOfferPurge(db: Db, now: () => Date, logger: Logger): () => void {
  const timer = setInterval(() => {
    purgeOffers(db, now()).catch((err: unknown) => logger.warn({ err }, 'could not purge spent credential offers'));
  }, PURGE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
