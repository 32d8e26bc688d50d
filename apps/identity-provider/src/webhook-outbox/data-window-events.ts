import type { Db } from '@svc/db';
import { authorizationDataWindowEnded, recordWebhookEvent } from './events.js';

/** Authorizations announced per run: the rest wait for the next minute. */
const BATCH = 500;

interface Ended {
  id: string;
  userId: string;
  clientId: string;
  organizationId: string;
  endedAt: Date;
}

/**
 * Writes authorization.data_window_ended once for each approved authorization whose data window
 * (its approval plus its application's preset_cache_ttl_seconds) is over. Rows are claimed with
 * FOR UPDATE SKIP LOCKED and marked in the same transaction as their events, so replicas running
 * this at the same minute never announce one twice. Answers how many it announced.
 */
export async function announceDataWindowEnds(db: Db, secret: string, now: Date): Promise<number> {
  return db.$transaction(async (tx) => {
    const ended = await tx.$queryRaw<Ended[]>`
      SELECT a.id, a."userId", p."clientId", p."organizationId",
             a."approvedAt" + make_interval(secs => p."presetCacheTtlSeconds") AS "endedAt"
      FROM "Authorization" a JOIN "Application" p ON p.id = a."applicationId"
      WHERE a."dataWindowEventAt" IS NULL AND a.status IN ('approved', 'consumed') AND a."userId" IS NOT NULL
        AND a."approvedAt" <= ${now}::timestamptz - interval '60 seconds'
        AND a."approvedAt" + make_interval(secs => p."presetCacheTtlSeconds") <= ${now}
      ORDER BY a."approvedAt"
      LIMIT ${BATCH}
      FOR UPDATE OF a SKIP LOCKED`;
    if (ended.length === 0) return 0;
    await tx.$executeRaw`UPDATE "Authorization" SET "dataWindowEventAt" = ${now} WHERE id = ANY(${ended.map((e) => e.id)}::uuid[])`;
    for (const e of ended) {
      const a = { id: e.id, userId: e.userId, application: { clientId: e.clientId, organizationId: e.organizationId } };
      await recordWebhookEvent(tx, authorizationDataWindowEnded(secret, a, e.endedAt));
    }
    return ended.length;
  });
}
