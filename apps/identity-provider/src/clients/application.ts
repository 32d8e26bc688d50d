import type { Db } from '@svc/db';

/** A registered client (an integrator's application), as the database holds it. */
export type Application = NonNullable<Awaited<ReturnType<Db['application']['findUnique']>>>;
