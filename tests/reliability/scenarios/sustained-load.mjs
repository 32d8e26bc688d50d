// All three services under load at once: every answer must be a success (no 4xx either: the
// requests are valid), and none a 5xx, error or timeout.
import { count, describeStatuses, loadAll } from '../load.mjs';

export async function sustainedLoad(_env, { seconds, targets }) {
  const results = await loadAll(targets, seconds);
  const failures = results.flatMap((r) => {
    const bad = count(r.statuses, (c) => c >= 400);
    return bad || r.errors || r.timeouts ? [`${r.name}: ${describeStatuses(r.statuses)}, ${r.errors} errors, ${r.timeouts} timeouts`] : [];
  });
  return {
    name: `sustained load, ${seconds} s, all three at once`,
    failures,
    figures: results.map((r) => `${r.name} ${r.requests} requests (${Math.round(r.rps)}/s), ${describeStatuses(r.statuses)}`),
  };
}
