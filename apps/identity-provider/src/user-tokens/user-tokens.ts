import { type Sql, statement } from '@svc/db';
import { checkAddress, isUuid } from '@svc/schemas';
import { pairwiseCandidates } from '@svc/secrets';
import { invalidRequest, noActiveAuthorization } from '../errors.js';
import type { ActiveAuthorization, GrantCache } from '../tokens/grant-cache.js';

const latestActive = (name: string, user: string) =>
  statement<ActiveAuthorization>(
    `user_token_${name}`,
    `SELECT id, "userId", "grantedScopes" FROM "Authorization"
     WHERE "applicationId" = $1::uuid AND "userId" = ${user} AND status IN ('approved', 'consumed')
     ORDER BY "updatedAt" DESC LIMIT 1`,
  );

const byId = latestActive('by_id', '$2::uuid');
// One of the ids a pairwise user id may stand for (at most one is a user's; see @svc/secrets).
const byPairwise = latestActive('by_pairwise', 'ANY($2::uuid[])');
const byEmail = latestActive('by_email', '(SELECT id FROM "User" WHERE email = $2)');
const byAddress = latestActive('by_address', '(SELECT "userId" FROM "Wallet" WHERE address = $2)');

/**
 * The user's most recently changed active authorization of this client; the user is named by id
 * (the organization's pairwise user id that wallet-verify answers, or the user's own id), email or
 * EIP-55 address. A pairwise id of another organization names no one. One answer for "no such
 * user" and "no authorization": neither is revealed to the client. Served from the grant cache
 * while its listener is live (a revocation, a newer authorization of the pair, or any change to
 * the client or user drops the entry on every replica); a refusal is never cached.
 */
export async function activeAuthorizationOf(
  { sql, grants, pairwiseSecret }: { sql: Sql; grants: GrantCache; pairwiseSecret: string },
  app: { id: string; organizationId: string },
  named: string,
): Promise<ActiveAuthorization> {
  const pairwise = isUuid(named) ? pairwiseCandidates(pairwiseSecret, app.organizationId, named) : [];
  const [lookup, key] = pairwise.length
    ? [byPairwise, named.toLowerCase()]
    : isUuid(named)
      ? [byId, named.toLowerCase()]
      : named.includes('@')
        ? [byEmail, named.trim().toLowerCase()]
        : checkAddress(named).ok
          ? [byAddress, named]
          : [undefined, named];
  if (!lookup) throw invalidRequest('The user must be named by a UUID, an email or an EIP-55 address');
  const cached = grants.activeAuthorization(app.id, key);
  if (cached) return cached;
  const sequence = grants.sequence;
  const row = await sql.one(lookup, [app.id, pairwise.length ? pairwise : key]);
  if (!row) throw noActiveAuthorization();
  grants.setActiveAuthorization(app.id, key, row, sequence);
  return row;
}
