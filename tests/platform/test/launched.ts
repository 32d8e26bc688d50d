import { afterEach } from '@jest/globals';
import { type Running, waitFor } from '@svc/testkit';

// The launcher gives up by itself and says why (a service not ready within 60 s, a database that
// does not start), so this only guards against a hang. It is long because CI runs these files
// beside other suites on two cores, where a first start (initdb, migrations, five processes)
// has taken over a minute.
const BANNER_WITHIN_MS = 240_000;

/** The launcher's banner, or its output if it exits first. */
export async function untilBanner(launcher: Running): Promise<void> {
  await waitFor(
    async () => {
      if (launcher.child.exitCode !== null) throw new Error(`the launcher exited ${launcher.child.exitCode}:\n${launcher.output()}`);
      return launcher.output().includes('Ctrl-C stops everything');
    },
    BANNER_WITHIN_MS,
    'the launcher banner',
    launcher.output,
  );
}

/**
 * Launchers a test left running (a failed expectation skips its Ctrl-C), stopped after each test,
 * so the next one finds neither their ports nor their embedded cluster. Returns `keep(stop)`,
 * which a test calls for each launcher it starts; the returned stop forgets it once it ran.
 */
export function stoppedAfterEachTest(): (stop: () => Promise<number | null>) => () => Promise<number | null> {
  const running = new Set<() => Promise<number | null>>();
  afterEach(async () => {
    for (const stop of running) await stop();
  });
  return (stop) => {
    const once = () => {
      running.delete(once);
      return stop();
    };
    running.add(once);
    return once;
  };
}
