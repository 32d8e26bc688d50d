// Redis killed mid-load and started again; PostgreSQL stopped mid-load and started again. Each
// service must answer as documented while the dependency is gone, say so on /ready, recover by
// itself, and lose nothing PostgreSQL held.
import { createPrismaClient } from '@svc/db';
import { waitFor } from '@svc/testkit';
import { count, describeStatuses, loadAll } from '../load.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function readiness(env) {
  return Object.fromEntries(
    await Promise.all(
      Object.entries(env.services).map(async ([name, s]) => [
        name,
        await fetch(`${s.url}/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      ]),
    ),
  );
}

async function allReady(env, within) {
  const deadline = Date.now() + within;
  await waitFor(async () => Object.values(await readiness(env)).every((s) => s === 200), within, 'every service to be ready again');
  return within - (deadline - Date.now());
}

async function issuedCount(env) {
  const db = createPrismaClient(env.databaseUrl());
  try {
    return await db.issuedCredential.count();
  } finally {
    await db.$disconnect();
  }
}

/**
 * Nothing lost: every credential answered 200 is recorded. A few more may be: requests still in
 * flight when the load stopped were completed but not counted, and a commit whose acknowledgement
 * died with the connection was answered 503 (the client retries and gets a fresh credential).
 */
function checkRecorded(failures, issued, stored) {
  if (stored < issued) failures.push(`the issuer answered 200 for ${issued} credentials but recorded only ${stored}`);
}

/** Runs the load while `outage` takes a dependency away after 2 s and `recover` brings it back `downSeconds` later. */
async function underOutage(env, targets, seconds, downSeconds, outage, recover) {
  const loading = loadAll(targets, seconds);
  await sleep(2_000);
  await outage();
  await sleep(1_000);
  const during = await readiness(env);
  await sleep(Math.max(0, downSeconds * 1000 - 1_000));
  await recover();
  const recoveredInMs = await allReady(env, 30_000);
  return { results: await loading, during, recoveredInMs };
}

export async function redisOutage(env, { seconds, targets }) {
  const before = await issuedCount(env);
  const { results, during, recoveredInMs } = await underOutage(env, targets, seconds, 4, env.redis.stop, env.redis.start);
  const by = Object.fromEntries(results.map((r) => [r.name, r]));
  const failures = [];
  // wallet-verify fails closed (documented): 503 rate_limiter_unavailable with Retry-After, never a 500.
  if (count(by['wallet-verify'].statuses, (c) => c >= 500 && c !== 503))
    failures.push(`wallet-verify answered a 5xx other than 503: ${describeStatuses(by['wallet-verify'].statuses)}`);
  if (!count(by['wallet-verify'].statuses, (c) => c === 503)) failures.push('wallet-verify never failed closed (no 503) while Redis was down');
  if (during['wallet-verify'] !== 503) failures.push(`wallet-verify /ready answered ${during['wallet-verify']} while Redis was down, not 503`);
  // The identity provider skips its rate limit and reads presets from PostgreSQL; the issuer does not need Redis.
  for (const name of ['identity-provider', 'credential-issuer']) {
    if (count(by[name].statuses, (c) => c >= 500)) failures.push(`${name} answered 5xx while Redis was down: ${describeStatuses(by[name].statuses)}`);
  }
  for (const r of results) if (r.errors || r.timeouts) failures.push(`${r.name}: ${r.errors} errors, ${r.timeouts} timeouts`);
  const issued = by['credential-issuer'].statuses[200] ?? 0;
  const stored = (await issuedCount(env)) - before;
  checkRecorded(failures, issued, stored);
  return {
    name: `Redis killed after 2 s, back 4 s later (load ${seconds} s)`,
    failures,
    figures: [
      ...results.map((r) => `${r.name}: ${describeStatuses(r.statuses)}`),
      `/ready while down: ${Object.entries(during)
        .map(([n, s]) => `${n} ${s}`)
        .join(', ')}; all ready again ${Math.round(recoveredInMs / 100) / 10} s after Redis returned`,
      `credentials issued ${issued}, recorded ${stored}`,
    ],
  };
}

export async function postgresRestart(env, { seconds, targets }) {
  const before = await issuedCount(env);
  const { results, during, recoveredInMs } = await underOutage(env, targets, seconds, 3, env.postgres.stop, env.postgres.start);
  const failures = [];
  for (const r of results) {
    // While PostgreSQL is down, requests that need it answer 503 temporarily_unavailable; never a 500.
    if (count(r.statuses, (c) => c >= 500 && c !== 503)) failures.push(`${r.name} answered a 5xx other than 503: ${describeStatuses(r.statuses)}`);
    if (r.errors || r.timeouts) failures.push(`${r.name}: ${r.errors} errors, ${r.timeouts} timeouts`);
  }
  for (const [name, status] of Object.entries(during))
    if (status !== 503) failures.push(`${name} /ready answered ${status} while PostgreSQL was down, not 503`);
  const issued = results.find((r) => r.name === 'credential-issuer').statuses[200] ?? 0;
  const stored = (await issuedCount(env)) - before;
  checkRecorded(failures, issued, stored);
  // And everything works again, with the data from before the restart.
  const after = await loadAll(targets, 3);
  for (const r of after)
    if (count(r.statuses, (c) => c >= 400) || r.errors) failures.push(`${r.name} after the restart: ${describeStatuses(r.statuses)}, ${r.errors} errors`);
  return {
    name: `PostgreSQL stopped after 2 s, back 3 s later (load ${seconds} s)`,
    failures,
    figures: [
      ...results.map((r) => `${r.name}: ${describeStatuses(r.statuses)}`),
      `/ready while down: ${Object.entries(during)
        .map(([n, s]) => `${n} ${s}`)
        .join(', ')}; all ready ${Math.round(recoveredInMs / 100) / 10} s after it returned`,
      `credentials issued ${issued}, recorded ${stored}; afterwards ${after.map((r) => `${r.name} ${describeStatuses(r.statuses)}`).join(', ')}`,
    ],
  };
}
