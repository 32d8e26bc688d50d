// CPU per answered request under load, read from /proc around the same load: the target process
// split by thread (its event loop, libuv's pool, the rest), PostgreSQL's and Redis's processes and
// the load generator. On a machine where all of them share the cores, req/s is bounded by
// cores ÷ the sum of these.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

const TICK_MS = 10;

/** utime + stime of a process, its threads included, in clock ticks. */
function ticks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
/**
 * The same, by the process's threads: the event loop (the thread whose id is the process's),
 * libuv's thread pool (node:crypto's signatures with a callback run there; Node.js 22 and later
 * name its threads libuv-worker) and every other thread (V8's collector and compiler, node's own).
 * Threads that ended are not counted; the pool's live as long as the process.
 */
function threadTicks(pid) {
  const split = { loop: 0, pool: 0, other: 0 };
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const used = Number(fields[11]) + Number(fields[12]);
      split[tid === String(pid) ? 'loop' : name === 'libuv-worker' ? 'pool' : 'other'] += used;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return split;
}
/** Every process whose name starts with `prefix`, summed. */
const ticksOf = (prefix) =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .reduce((sum, pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith(prefix) ? sum + ticks(pid) : sum;
      } catch {
        return sum;
      }
    }, 0);

/**
 * Loads `target` (from startTarget) with `options` (autocannon's) for `seconds` after a 2 s
 * warm-up, and reads what each process spent per answered request.
 */
export async function measureCpu(name, target, options, seconds) {
  await autocannon({ connections: 50, ...options, duration: 2 });
  const before = {
    target: ticks(target.pid),
    threads: threadTicks(target.pid),
    postgres: ticksOf('postgres'),
    redis: ticksOf('redis-server'),
    generator: ticks(process.pid),
  };
  const result = await autocannon({ connections: 50, ...options, duration: seconds });
  const per = (t) => (t * TICK_MS) / result.requests.total;
  const threads = threadTicks(target.pid);
  return {
    name,
    rps: result.requests.average,
    target: per(ticks(target.pid) - before.target),
    loop: per(threads.loop - before.threads.loop),
    pool: per(threads.pool - before.threads.pool),
    other: per(threads.other - before.threads.other),
    postgres: per(ticksOf('postgres') - before.postgres),
    redis: per(ticksOf('redis-server') - before.redis),
    generator: per(ticks(process.pid) - before.generator),
    bad: result.non2xx + result.errors,
  };
}

/**
 * The rows of measureCpu as a table, each rate also as a ratio of the row named `baseline`, or of
 * the row named by its own `versus` (a grant set against another server's same grant).
 */
export function printCpuTable(title, rows, baseline) {
  const base = (r) => rows.find((b) => b.name === (r.versus ?? baseline));
  console.log(`\n${title}, ${cpus().length} cores, Node.js ${process.versions.node} (${new Date().toISOString()})`);
  console.log(
    `${'target'.padEnd(40)}${'req/s'.padStart(8)}${'× base'.padStart(8)}${'target'.padStart(8)}${'(loop'.padStart(7)}${'pool'.padStart(7)}${'other)'.padStart(7)}${'pg'.padStart(7)}${'redis'.padStart(7)}${'loadgen'.padStart(8)}${'sum'.padStart(7)}`,
  );
  const f = (v, w = 7) => v.toFixed(3).padStart(w);
  for (const r of rows) {
    const sum = r.target + r.postgres + r.redis + r.generator;
    console.log(
      `${r.name.padEnd(40)}${r.rps.toFixed(0).padStart(8)}${(r.rps / base(r).rps).toFixed(2).padStart(8)}${f(r.target, 8)}${f(r.loop)}${f(r.pool)}${f(r.other)}${f(r.postgres)}${f(r.redis)}${f(r.generator, 8)}${f(sum)}${r.bad ? `  (${r.bad} non-2xx)` : ''}`,
    );
  }
  const against = [...new Set(rows.map((r) => r.versus).filter(Boolean))].map((name) => `, or over "${name}" for the rows set against it`).join('');
  console.log(`CPU ms per answered request; × base: req/s over the row "${baseline}"${against}.`);
}

/** The environment that makes a target write a V8 CPU profile of its run into `dir` (none without). */
export const profiledIn = (dir) => (dir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` } : {});
