import { type Sql, statement } from '@svc/db';
import { checkAddress, isUuid } from '@svc/schemas';
import { invalidRequest, noActiveAuthorization } from '../errors.js';
import type { ActiveAuthorization, GrantCache } from './grant-cache.js';

const latestActive = (name: string, user: string) =>
  statement<ActiveAuthorization>(
    `user_token_${name}`,
    `SELECT id, "userId", "grantedScopes" FROM "Authorization"
     WHERE "applicationId" = $1::uuid AND "userId" = ${user} AND status IN ('approved', 'consumed')
     ORDER BY "updatedAt" DESC LIMIT 1`,
  );

const byId = latestActive('by_id', '$2::uuid');
const byEmail = latestActive('by_email', '(SELECT id FROM "User" WHERE email = $2)');
const byAddress = latestActive('by_address', '(SELECT "userId" FROM "Wallet" WHERE address = $2)');

/**
 * The user's most recently changed active authorization of this client; the user is named by id,
 * email or EIP-55 address. One answer for "no such user" and "no authorization": neither is
 * revealed to the client. Served from the grant cache while its listener is live (a revocation,
 * a newer authorization of the pair, or any change to the client or user drops the entry on every
 * replica); a refusal is never cached.
 */
export async function activeAuthorizationOf(sql: Sql, grants: GrantCache, applicationId: string, named: string): Promise<ActiveAuthorization> {
  const [lookup, key] = isUuid(named)
    ? [byId, named.toLowerCase()]
    : named.includes('@')
      ? [byEmail, named.trim().toLowerCase()]
      : checkAddress(named).ok
        ? [byAddress, named]
        : [undefined, named];
  if (!lookup) throw invalidRequest('The user must be named by a UUID, an email or an EIP-55 address');
  const cached = grants.activeAuthorization(applicationId, key);
  if (cached) return cached;
  const sequence = grants.sequence;
  const row = await sql.one(lookup, [applicationId, key]);
  if (!row) throw noActiveAuthorization();
  grants.setActiveAuthorization(applicationId, key, row, sequence);
  return row;
}
