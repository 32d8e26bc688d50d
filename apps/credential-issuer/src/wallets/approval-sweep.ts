import type { Db } from '@svc/db';
import type { Logger } from '@svc/http';
import type { CoreDeps } from '@svc/runtime';
import { endApprovalCredentials } from './approval-events.js';
import type { AuthorizationServerClient } from './authorization-server.js';
import { CREDENTIAL_CONFIGURATIONS } from './configurations.js';

/** Approvals asked about in one request to the identity provider (its limit). */
const BATCH = 50;

export interface ApprovalSweepDeps {
  db: Db;
  cache: CoreDeps['store']['cache'];
  now: () => Date;
  logger: Logger;
  organizationId: string;
  server: Pick<AuthorizationServerClient, 'liveApprovals'>;
}

/**
 * The reconciliation behind wallet_approval.revoked: asks the identity provider which approvals
 * behind this issuer's live credentials still stand, fifty at a time, and revokes every
 * credential of an approval that no longer does. A revocation whose event never arrived (the
 * endpoint disabled or deleted, deliveries given up, this issuer down for longer than the retries)
 * takes effect here. Answers how many credentials it revoked.
 */
export async function sweepApprovals(deps: ApprovalSweepDeps): Promise<number> {
  const configurations = CREDENTIAL_CONFIGURATIONS.map((c) => c.id);
  let after = '';
  let revoked = 0;
  for (;;) {
    const rows = await deps.db.$queryRaw<{ id: string }[]>`
      SELECT DISTINCT split_part(approval, '#', 1) AS id FROM "IssuedCredential"
      WHERE "organizationId" = ${deps.organizationId}::uuid AND approval IS NOT NULL AND "revokedAt" IS NULL
        AND ("validUntil" IS NULL OR "validUntil" > ${deps.now()}) AND split_part(approval, '#', 1) > ${after}
      ORDER BY 1 LIMIT ${BATCH}`;
    if (rows.length === 0) return revoked;
    const ids = rows.map((r) => r.id);
    const live = await deps.server.liveApprovals(ids);
    for (const id of ids) if (!live.has(id)) revoked += await endApprovalCredentials(deps, id, configurations);
    if (rows.length < BATCH) return revoked;
    after = ids.at(-1)!;
  }
}

/**
 * Sweeps every `intervalSeconds`, one replica per interval (the first to claim it in the shared
 * store); a failure is logged and the next interval tries again. Returns the stop.
 */
export function startApprovalSweep(deps: ApprovalSweepDeps, intervalSeconds: number): () => void {
  const run = async () => {
    const slot = Math.floor(deps.now().getTime() / (intervalSeconds * 1000));
    if ((await deps.cache.increment(`wallet:approval-sweep:${slot}`, intervalSeconds * 2)) > 1) return;
    const revoked = await sweepApprovals(deps);
    if (revoked > 0) deps.logger.info({ revoked }, 'credentials on wallet approvals that ended at the identity provider revoked');
  };
  const timer = setInterval(() => {
    run().catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'could not reconcile wallet approvals with the identity provider'));
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
