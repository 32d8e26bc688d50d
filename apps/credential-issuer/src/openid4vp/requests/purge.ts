import type { Db } from '@svc/db';
import type { Logger } from '@svc/http';

const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Drops presentation requests whose results have been kept `keptMs` past their expiry, and the
 * response key of every request that expired unanswered (nothing may be decrypted for it again).
 * What a wallet disclosed is kept no longer than its integrator needs to read it.
 */
export async function purgePresentationRequests(db: Db, now: Date, keptMs: number): Promise<number> {
  await db.presentationRequest.updateMany({
    where: { status: 'pending', expiresAt: { lt: now }, NOT: { responseKey: { equals: {} } } },
    data: { responseKey: {} },
  });
  const { count } = await db.presentationRequest.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - keptMs) } } });
  return count;
}

/** Purges every ten minutes on every replica (cheap indexed statements); returns the stop. */
export function startPresentationPurge(db: Db, now: () => Date, keptMs: number, logger: Logger): () => void {
  const timer = setInterval(() => {
    purgePresentationRequests(db, now(), keptMs).catch((err: unknown) => logger.warn({ err }, 'could not purge old presentation requests'));
  }, PURGE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
