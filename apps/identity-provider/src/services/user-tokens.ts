import { type Sql, statement } from '@svc/db';
import { checkAddress, isUuid } from '@svc/schemas';
import { invalidRequest, noActiveAuthorization } from '../errors.js';

interface ActiveAuthorization {
  id: string;
  userId: string;
  grantedScopes: string[];
}

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
 * revealed to the client.
 */
export async function activeAuthorizationOf(sql: Sql, applicationId: string, named: string): Promise<ActiveAuthorization> {
  let row: ActiveAuthorization | undefined;
  if (isUuid(named)) row = await sql.one(byId, [applicationId, named]);
  else if (named.includes('@')) row = await sql.one(byEmail, [applicationId, named.trim().toLowerCase()]);
  else if (checkAddress(named).ok) row = await sql.one(byAddress, [applicationId, named]);
  else throw invalidRequest('The user must be named by a UUID, an email or an EIP-55 address');
  if (!row) throw noActiveAuthorization();
  return row;
}
