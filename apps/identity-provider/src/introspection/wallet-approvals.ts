import type { Db } from '@svc/db';
import { storedDetails } from '../authorize/authorization-details.js';

/**
 * Which of these wallets' approvals are still live: approved (its code spent or not), granting
 * credentials, and its application not revoked. Anything else, an unknown id included, is not, and
 * nothing more is said of it. For the credential issuer's client only (the route checks), which
 * asks about the approvals its live credentials were issued on: a revocation whose
 * wallet_approval.revoked never reached it still ends them (docs/credential-issuer.md).
 */
export async function walletApprovals(db: Db, ids: string[]): Promise<{ authorization_id: string; active: boolean }[]> {
  const unique = [...new Set(ids)];
  const rows = await db.authorization.findMany({
    where: { id: { in: unique }, status: { in: ['approved', 'consumed'] }, application: { status: 'active' } },
    select: { id: true, authorizationDetails: true },
  });
  const live = new Set(rows.filter((r) => storedDetails(r.authorizationDetails).length > 0).map((r) => r.id));
  return unique.map((id) => ({ authorization_id: id, active: live.has(id) }));
}
