import { type Db, ENVIRONMENT_MARK_SQL, environmentMarked } from '@svc/db';
import type { Environment } from '@svc/secrets';

/**
 * Why this deployment must not serve its database, if it must not: the database is marked as the
 * other environment's (packages/db service-roles.ts marks it when roles are applied, npm start when
 * it makes it). A sandbox pointed at production's database would open sign-up and test data there.
 */
export async function databaseMismatch(db: Db, environment: Environment): Promise<string | undefined> {
  const rows = await db.$queryRawUnsafe<{ note: string | null }[]>(ENVIRONMENT_MARK_SQL);
  const marked = environmentMarked(rows[0]?.note);
  return marked && marked !== environment
    ? `SVC_ENVIRONMENT is ${environment}, but DATABASE_URL names the ${marked}'s database: point each environment at its own`
    : undefined;
}
