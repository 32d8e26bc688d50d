import type { Db } from '@svc/db';
import { waitFor } from '@svc/testkit';
import type { Response, Test } from 'supertest';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/**
 * `requests` overtaken by a delete: `remove` deletes a row in a transaction that holds it; each
 * request finds the row (the delete is not committed yet) and then waits to write it; once all
 * wait, the delete commits under them. Their answers, in order.
 */
export async function overtakenByADelete(db: Db, remove: (tx: Tx) => Promise<unknown>, requests: Test[]): Promise<Response[]> {
  const waitingOnALock = async () =>
    (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!
      .n;
  const answers = await db.$transaction(
    async (tx) => {
      await remove(tx);
      const racing = requests.map((req) => req.then((res) => res));
      await waitFor(async () => (await waitingOnALock()) === requests.length, 10_000, `${requests.length} requests waiting on the deleted row`);
      return racing;
    },
    { timeout: 20_000 },
  );
  return Promise.all(answers);
}
