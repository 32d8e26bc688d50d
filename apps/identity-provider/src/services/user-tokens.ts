import { Prisma, type Db } from '@svc/db';
import { checkAddress, isUuid } from '@svc/schemas';
import { invalidRequest, noActiveAuthorization } from '../errors.js';

/**
 * The user's most recently changed active authorization of this client; the user is named by id,
 * email or EIP-55 address. One answer for "no such user" and "no authorization": neither is
 * revealed to the client.
 */
export async function activeAuthorizationOf(db: Db, applicationId: string, named: string) {
  let user: Prisma.Sql;
  if (isUuid(named)) user = Prisma.sql`${named}::uuid`;
  else if (named.includes('@')) user = Prisma.sql`(SELECT id FROM "User" WHERE email = ${named.trim().toLowerCase()})`;
  else if (checkAddress(named).ok) user = Prisma.sql`(SELECT "userId" FROM "Wallet" WHERE address = ${named})`;
  else throw invalidRequest('The user must be named by a UUID, an email or an EIP-55 address');
  const [row] = await db.$queryRaw<{ id: string; userId: string; grantedScopes: string[] }[]>`
    SELECT id, "userId", "grantedScopes" FROM "Authorization"
    WHERE "applicationId" = ${applicationId}::uuid AND "userId" = ${user} AND status IN ('approved', 'consumed')
    ORDER BY "updatedAt" DESC LIMIT 1`;
  if (!row) throw noActiveAuthorization();
  return row;
}
