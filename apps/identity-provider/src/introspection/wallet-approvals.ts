import type { Db } from '@svc/db';
import { storedDetails } from '../authorize/authorization-details.js';

type ApprovalStatus = 'active' | 'ended' | 'unknown';

/**
 * Where each of these wallets' approvals stands: `active` while approved (its code spent or not)
 * with its application live, `ended` once revoked or its application revoked, `unknown` for an id
 * this identity provider holds no approval of credentials under (an id of another deployment, or
 * one a restored database lost): the issuer revokes on `ended` only, so a wrong or stale database
 * cannot end valid credentials en masse. For the credential issuer's client only (the route
 * checks), which asks about the approvals its live credentials were issued on: a revocation whose
 * wallet_approval.revoked never reached it still ends them (docs/credential-issuer.md).
 */
export async function walletApprovals(db: Db, ids: string[]): Promise<{ authorization_id: string; status: ApprovalStatus }[]> {
  const unique = [...new Set(ids)];
  const rows = await db.authorization.findMany({
    where: { id: { in: unique } },
    select: { id: true, status: true, authorizationDetails: true, application: { select: { status: true } } },
  });
  const live = (r: (typeof rows)[number]) => (r.status === 'approved' || r.status === 'consumed') && r.application.status === 'active';
  const known = new Map(rows.filter((r) => storedDetails(r.authorizationDetails).length > 0).map((r) => [r.id, live(r) ? 'active' : 'ended'] as const));
  return unique.map((id) => ({ authorization_id: id, status: known.get(id) ?? 'unknown' }));
}
