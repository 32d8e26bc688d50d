import type { Db } from '@svc/db';
import type { Logger } from '@svc/http';
import type { CoreDeps } from '@svc/runtime';
import { endApprovalCredentials } from './approval-events.js';
import type { AuthorizationServerClient } from './authorization-server.js';

/** Approvals asked about in one request to the identity provider (its limit). */
const BATCH = 50;
/** Where an interrupted sweep resumes (the last approval it finished), shared by the replicas. */
const cursorKey = (organizationId: string) => `wallet:approval-sweep:cursor:${organizationId}`;
const CURSOR_SECONDS = 86_400;

export interface ApprovalSweepDeps {
  db: Db;
  cache: CoreDeps['store']['cache'];
  now: () => Date;
  logger: Logger;
  organizationId: string;
  server: Pick<AuthorizationServerClient, 'endedApprovals'>;
}

/**
 * The reconciliation behind wallet_approval.revoked: asks the identity provider where the
 * approvals behind this issuer's live credentials stand, fifty at a time, and revokes every
 * credential of one it knows to have ended. A revocation whose event never arrived (the endpoint
 * disabled or deleted, deliveries given up, this issuer down for longer than the retries) takes
 * effect here. An approval it does not know is left alone: a restored or wrong database there
 * revokes nothing. A sweep that fails half way (the identity provider's budget spent, say) resumes
 * where it stopped. Answers how many credentials it revoked.
 */
export async function sweepApprovals(deps: ApprovalSweepDeps): Promise<number> {
  const cursor = cursorKey(deps.organizationId);
  let after = (await deps.cache.get(cursor)) ?? '';
  let revoked = 0;
  for (;;) {
    // In the order of IssuedCredential_live_approval_idx: a page reads on from where the last one
    // stopped, not every live credential of the issuer again (a sweep grows with their number, not its square).
    const rows = await deps.db.$queryRaw<{ id: string }[]>`
      SELECT DISTINCT split_part(approval, '#', 1) AS id FROM "IssuedCredential"
      WHERE "organizationId" = ${deps.organizationId}::uuid AND approval IS NOT NULL AND "revokedAt" IS NULL
        AND ("validUntil" IS NULL OR "validUntil" > ${deps.now()}) AND split_part(approval, '#', 1) > ${after}
      ORDER BY 1 LIMIT ${BATCH}`;
    const ids = rows.map((r) => r.id);
    for (const id of ids.length ? await deps.server.endedApprovals(ids) : []) {
      // Every configuration it has credentials of, one no longer offered included (by the index of
      // the query above: the authorization id is what comes before '#'). endApprovalCredentials
      // reads the credentials again, on purpose: after it has remembered the end, so one recorded
      // meanwhile is either in that read or revoked by its own request (endedMeanwhile).
      const on = await deps.db.$queryRaw<{ approval: string }[]>`
        SELECT approval FROM "IssuedCredential"
        WHERE "organizationId" = ${deps.organizationId}::uuid AND approval IS NOT NULL AND "revokedAt" IS NULL AND split_part(approval, '#', 1) = ${id}`;
      revoked += await endApprovalCredentials(
        deps,
        id,
        on.map((c) => c.approval.slice(id.length + 1)),
      );
    }
    if (ids.length < BATCH) {
      await deps.cache.delete(cursor);
      return revoked;
    }
    after = ids.at(-1)!;
    await deps.cache.set(cursor, after, CURSOR_SECONDS);
  }
}

/**
 * Sweeps every `intervalSeconds` (the first soon after start), one replica per interval (the first
 * to claim it in the shared store), never two at once in one process; a failure is logged and the
 * next interval goes on from where it stopped. Returns the stop.
 */
export function startApprovalSweep(deps: ApprovalSweepDeps, intervalSeconds: number): () => void {
  let running = false;
  const run = async () => {
    const slot = Math.floor(deps.now().getTime() / (intervalSeconds * 1000));
    if (running || (await deps.cache.increment(`wallet:approval-sweep:${deps.organizationId}:${slot}`, intervalSeconds * 2)) > 1) return;
    running = true;
    try {
      const revoked = await sweepApprovals(deps);
      if (revoked > 0) deps.logger.info({ revoked }, 'credentials on wallet approvals that ended at the identity provider revoked');
    } finally {
      running = false;
    }
  };
  const tick = () => {
    run().catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'could not reconcile wallet approvals with the identity provider'));
  };
  const first = setTimeout(tick, Math.min(intervalSeconds, 30) * 1000);
  const timer = setInterval(tick, intervalSeconds * 1000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
