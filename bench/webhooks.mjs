// Webhook delivery from one identity-provider replica: how many events per second it delivers to
// one receiver (a backlog of events written at once), and the time from a change to its delivery
// (p50/p99) at a steady rate below that, beside an Express hello-world measured in the same run.
//   npm run --silent -w @svc/bench webhooks [-- --events 2000 --rate 100 --seconds 10]
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createPrismaClient } from '@svc/db';
import { signUpThroughOutbox } from '@svc/testkit';
import { startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, helloWorlds, load } from './lib.mjs';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '2000' }, rate: { type: 'string', default: '100' }, seconds: { type: 'string', default: '10' } },
});
const backlog = Number(values.events);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const stage = (s) => process.stderr.write(`[bench] ${s}\n`);

/** A receiver that answers 204 at once and notes when each event arrived. */
async function receiver() {
  const arrived = new Map();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.set(String(req.headers['webhook-id']), performance.timeOrigin + performance.now());
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, arrived, close: () => new Promise((r) => server.close(r)) };
}

async function call(base, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const until = async (check, ms) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not delivered in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const webhookId = (eventId) => `msg_${eventId.replaceAll('-', '')}`;

const [hello] = await helloWorlds(async (name, url) => ({ name, ...(await load(url, { seconds: 5 })) }));
const database = await benchDatabase();
const target = await startIdentityProvider(database.url, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', CONSOLE_SIGNUP: 'open' });
const hooks = await receiver();
const db = createPrismaClient(database.url);
try {
  const email = `bench-${randomBytes(4).toString('hex')}@bench.example`;
  const password = 'bench webhook password';
  const { organization_id: organizationId } = await signUpThroughOutbox(target.url, { email, password, organization_name: 'Bench' });
  const { session_token } = await call(target.url, '/auth/session', undefined, { email, password });
  await call(target.url, '/v2/developer/webhooks', session_token, { url: hooks.url, events: ['authorization.revoked'] });
  const outbox = (n) =>
    db.$queryRaw`INSERT INTO "WebhookEvent" ("organizationId", "type", "data", "subject")
      SELECT ${organizationId}::uuid, 'authorization.revoked', jsonb_build_object('authorization_id', gen_random_uuid()::text, 'reason', 'user'), NULL
      FROM generate_series(1, ${n}::int) RETURNING id, "occurredAt"`;

  stage(`backlog of ${backlog} events`);
  const t0 = performance.timeOrigin + performance.now();
  const written = await outbox(backlog);
  await until(() => written.every((e) => hooks.arrived.has(webhookId(e.id))), 300_000);
  const drained = performance.timeOrigin + performance.now() - t0;
  const throughput = (backlog * 1000) / drained;

  stage(`${rate} events per second for ${seconds} s`);
  const latencies = [];
  const steady = [];
  const start = Date.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = start + (i * 1000) / rate;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    steady.push(...(await outbox(1)));
  }
  await until(() => steady.every((e) => hooks.arrived.has(webhookId(e.id))), 60_000);
  for (const e of steady) latencies.push(hooks.arrived.get(webhookId(e.id)) - e.occurredAt.getTime());
  latencies.sort((a, b) => a - b);

  console.log(`\nwebhooks: one identity-provider replica, one receiver on 127.0.0.1 (${new Date().toISOString()})`);
  console.log(`${hello.name}: ${hello.rps.toFixed(0)} req/s (the run's yardstick)`);
  console.log(
    `backlog: ${backlog} events delivered in ${(drained / 1000).toFixed(1)} s: ${throughput.toFixed(0)} events/s (${(throughput / hello.rps).toFixed(3)} × hello-world req/s)`,
  );
  console.log(
    `steady ${rate} events/s for ${seconds} s: change to delivery p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1).toFixed(0)} ms`,
  );
} finally {
  await db.$disconnect();
  await hooks.close();
  await target.stop();
  await database.close();
}
