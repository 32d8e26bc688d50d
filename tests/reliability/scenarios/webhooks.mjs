// Webhook delivery that loses nothing: a receiver that fails the first attempts, a
// replica killed with SIGKILL right after a change, 1 000 events through three replicas, and
// PostgreSQL restarted mid-delivery. The identity provider's replicas are real processes on the
// suite's PostgreSQL; the receiver is an HTTP server in this process.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createPrismaClient } from '@svc/db';
import { signUpThroughOutbox, startService, waitFor } from '@svc/testkit';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Records every request; answers 503 to an event's first `failFirst` attempts, then 200. Tracks requests in flight. */
async function startReceiver() {
  const attempts = new Map();
  const delivered = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const receiver = {
    failFirst: 0,
    attempts,
    delivered,
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      attempts.clear();
      delivered.length = 0;
      maxInFlight = 0;
    },
  };
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const n = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, n);
      const ok = n > receiver.failFirst;
      if (ok) delivered.push({ id, timestamp: JSON.parse(Buffer.concat(chunks).toString()).timestamp });
      // A little work per request, so overlapping deliveries would show.
      setTimeout(() => {
        inFlight--;
        res.statusCode = ok ? 200 : 503;
        res.end();
      }, 2);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${server.address().port}/hooks`;
  receiver.close = () => new Promise((resolve) => server.close(resolve));
  return receiver;
}

async function call(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A developer of a new organization, signed in, with one endpoint for test events. */
async function endpointFor(base, url) {
  const email = `hooks-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'reliability webhook password';
  await signUpThroughOutbox(base, { email, password, organization_name: 'Webhooks' });
  const { session_token } = await call(base, 'POST', '/auth/session', undefined, { email, password });
  const endpoint = await call(base, 'POST', '/v2/developer/webhooks', session_token, { url, events: ['webhook.test'] });
  return { token: session_token, id: endpoint.id, test: (via = base) => call(via, 'POST', `/v2/developer/webhooks/${endpoint.id}/test`, session_token) };
}

/** Until `count` distinct events have arrived (or `ms` passed): how long it took. */
async function arrived(receiver, count, ms, what) {
  const t0 = Date.now();
  await waitFor(() => new Set(receiver.delivered.map((d) => d.id)).size >= count, ms, what);
  return Date.now() - t0;
}

export async function webhooks(env) {
  const failures = [];
  const figures = [];
  const receiver = await startReceiver();
  const db = createPrismaClient(env.databaseUrl());
  // Retries come 5 s, then 5 min apart: the suite moves them to now, as time passing would.
  const retriesDue = () => db.$executeRaw`UPDATE "WebhookDelivery" SET "nextAttemptAt" = now() WHERE status = 'pending'`;
  const main = env.services['identity-provider'];
  const replicas = [await startService('identity-provider', env.idpEnv), await startService('identity-provider', env.idpEnv)];
  try {
    const hook = await endpointFor(main.url, receiver.url);

    // 1. The receiver fails the first three attempts of every event; every event arrives afterwards, its id unchanged.
    receiver.failFirst = 3;
    for (let i = 0; i < 20; i++) await hook.test();
    for (let round = 1; round <= 3; round++) {
      await waitFor(() => [...receiver.attempts.values()].filter((n) => n >= round).length >= 20, 20_000, `attempt ${round} of 20 events`);
      await retriesDue();
    }
    await arrived(receiver, 20, 20_000, '20 events after three failed attempts each');
    if (receiver.delivered.length !== 20) failures.push(`failing receiver: ${receiver.delivered.length} deliveries of 20 events`);
    if ([...receiver.attempts.values()].some((n) => n !== 4)) failures.push('failing receiver: an event was not tried exactly four times under one webhook-id');
    figures.push('receiver failing 3 attempts: 20 of 20 events delivered on the 4th, each under its one webhook-id');
    receiver.failFirst = 0;
    receiver.reset();

    // 2. A replica killed with SIGKILL right after the changes it made, while the receiver refuses
    // them (so none can have arrived before): restarted, every change is delivered.
    receiver.failFirst = 1;
    const victim = replicas[0];
    const changes = [];
    for (let i = 0; i < 5; i++) changes.push((await hook.test(victim.url)).event_id);
    victim.running.child.kill('SIGKILL');
    await victim.running.exited;
    replicas[0] = await startService('identity-provider', { ...env.idpEnv, PORT: String(victim.port) });
    await retriesDue();
    // Whoever held the endpoint's lease when it died held it for at most 30 s.
    const afterKill = await arrived(receiver, 5, 45_000, 'the 5 events made just before SIGKILL').catch((err) => {
      failures.push(`SIGKILL: ${err.message}`);
      return Number.NaN;
    });
    const ids = new Set(receiver.delivered.map((d) => d.id));
    for (const event of changes) if (!ids.has(`msg_${event.replaceAll('-', '')}`)) failures.push(`SIGKILL: event ${event} was never delivered`);
    figures.push(`SIGKILL right after 5 changes (receiver refusing): all delivered ${Math.round(afterKill)} ms after the restart`);
    receiver.failFirst = 0;
    receiver.reset();

    // 3. 1 000 events through three replicas: each once, one at a time, in event order (an
    // organization of its own: test events are limited per organization and hour).
    const busy = await endpointFor(main.url, receiver.url);
    const count = 1_000;
    const t0 = Date.now();
    for (let i = 0; i < count; i++) await busy.test([main, ...replicas][i % 3].url);
    const made = Date.now() - t0;
    const took = await arrived(receiver, count, 120_000, `${count} events`);
    const deliveredIds = receiver.delivered.map((d) => d.id);
    if (deliveredIds.length !== count)
      failures.push(`1 000 events: ${deliveredIds.length} deliveries (${deliveredIds.length - new Set(deliveredIds).size} twice)`);
    if (receiver.maxInFlight > 1) failures.push(`1 000 events: ${receiver.maxInFlight} deliveries to one endpoint were in flight at once`);
    const outOfOrder = receiver.delivered.filter((d, i) => i > 0 && d.timestamp < receiver.delivered[i - 1].timestamp).length;
    if (outOfOrder) failures.push(`1 000 events: ${outOfOrder} arrived before an older one`);
    figures.push(
      `${count} events made in ${made} ms through 3 replicas, all delivered once and in order ${took} ms after the last (${Math.round((count * 1000) / (made + took))} events/s end to end)`,
    );
    receiver.reset();

    // 4. PostgreSQL restarted while deliveries are under way: nothing lost.
    const pending = 200;
    const restarted = await endpointFor(main.url, receiver.url);
    for (let i = 0; i < pending; i++) await restarted.test();
    await waitFor(() => receiver.delivered.length >= 20, 20_000, 'deliveries under way');
    await env.postgres.stop();
    await sleep(2_000);
    await env.postgres.start();
    const afterRestart = await arrived(receiver, pending, 60_000, `${pending} events across a PostgreSQL restart`).catch((err) => {
      failures.push(`PostgreSQL restart: ${err.message}`);
      return Number.NaN;
    });
    figures.push(
      `PostgreSQL stopped for 2 s mid-delivery: ${new Set(receiver.delivered.map((d) => d.id)).size} of ${pending} events delivered, the last ${Math.round(afterRestart)} ms after the restart`,
    );
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
    await db.$disconnect().catch(() => undefined);
    await receiver.close();
  }
  return { name: 'webhooks: a failing receiver, SIGKILL after a change, 1 000 events on 3 replicas, PostgreSQL restarted', failures, figures };
}
