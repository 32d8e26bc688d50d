#!/usr/bin/env node
// The reliability suite: load, dependency outages, races and fuzzing against the three services
// as real processes, on a PostgreSQL and a Redis of its own (so it can stop them), all on
// 127.0.0.1 and bounded in time (about two minutes). Prints what it measured and exits 1 on
// any failure.   npm run reliability [-- --seconds 15] [-- --only races,fuzz]
import { availableParallelism, cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { startEnvironment } from './environment.mjs';
import { loadTargets } from './load.mjs';
import { postgresRestart, redisOutage } from './scenarios/dependency-outages.mjs';
import { fuzz } from './scenarios/fuzz.mjs';
import { races } from './scenarios/races.mjs';
import { sustainedLoad } from './scenarios/sustained-load.mjs';
import { webhooks } from './scenarios/webhooks.mjs';

const SCENARIOS = { load: sustainedLoad, redis: redisOutage, postgres: postgresRestart, races, fuzz, webhooks };
const { values } = parseArgs({ options: { seconds: { type: 'string', default: '15' }, only: { type: 'string' } } });
const chosen = values.only ? values.only.split(',') : Object.keys(SCENARIOS);
const unknown = chosen.filter((s) => !(s in SCENARIOS));
if (unknown.length) {
  process.stderr.write(`unknown scenarios: ${unknown.join(', ')} (known: ${Object.keys(SCENARIOS).join(', ')})\n`);
  process.exit(2);
}

const log = (line) => process.stderr.write(`[reliability] ${line}\n`);
const started = Date.now();
const env = await startEnvironment(log);
const results = [];
try {
  const targets = await loadTargets(env);
  for (const name of chosen) {
    log(`${name}…`);
    const t0 = Date.now();
    try {
      results.push({ ...(await SCENARIOS[name](env, { seconds: Number(values.seconds), targets })), ms: Date.now() - t0 });
    } catch (err) {
      results.push({ name, failures: [`the scenario itself failed: ${err instanceof Error ? err.stack : err}`], figures: [], ms: Date.now() - t0 });
    }
  }
} finally {
  await env.stop();
}

const machine = `${availableParallelism()} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`;
console.log(`\nreliability suite, ${new Date().toISOString()}, ${machine}, ${Math.round((Date.now() - started) / 1000)} s\n`);
for (const r of results) {
  console.log(`${r.failures.length ? 'FAIL' : 'pass'}  ${r.name}  (${Math.round(r.ms / 1000)} s)`);
  for (const f of r.figures) console.log(`        ${f}`);
  for (const f of r.failures) console.log(`      ✗ ${f}`);
}
const failed = results.filter((r) => r.failures.length).length;
console.log(`\n${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
