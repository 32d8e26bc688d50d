// Webhooks end to end on a real PostgreSQL: endpoints managed through /v2/developer/webhooks,
// events written in the transaction of the change, delivered by the deliverer to a receiver on
// this machine, and every signature checked with standardwebhooks, a verifier this project did not write.
// On a database of this file's own: the identity providers other suites start as processes each
// run a deliverer, which would otherwise take these deliveries.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createPrismaClient, type Db } from '@svc/db';
import { testSuiteDatabaseUrl } from '@svc/testkit';
import { arrange, basic, buildIdp, issueTokens, signIn } from '../helpers.js';
import { webhookDeliverer } from '../../src/webhook-outbox/deliverer.js';
import { announceDataWindowEnds } from '../../src/webhook-outbox/data-window-events.js';
import { accessToken, prove, registerAction } from '../actions/people.js';
import { overtakenByADelete } from '../overtaken-by-a-delete.js';
import { headersOf, startReceiver } from './receiver.js';

const suite = {} as { db: Db; idp: ReturnType<typeof buildIdp> };
let databaseUrl: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let deliverer: ReturnType<typeof webhookDeliverer>;
/** An identity provider on this file's database. */
const idpHere = (env: NodeJS.ProcessEnv = {}) => buildIdp({ DATABASE_URL: databaseUrl, ...env });

beforeAll(async () => {
  databaseUrl = await testSuiteDatabaseUrl('webhooks');
  suite.db = createPrismaClient(databaseUrl, { poolSize: 4 });
  suite.idp = idpHere();
  receiver = await startReceiver();
  deliverer = webhookDeliverer(suite.idp.deps);
});
afterAll(async () => {
  await deliverer.stop();
  await receiver.close();
  await suite.idp.deps.close();
  await suite.db.$disconnect();
});

/** An organization's owner (a session) with its applications, and a webhook endpoint of theirs. */
async function owner(events = ['authorization.approved', 'authorization.revoked', 'webhook.test']) {
  const a = await arrange(suite.db);
  const session = await signIn(suite.idp.app, a.user.email, a.user.password);
  const auth = { Authorization: `Bearer ${session}` };
  const created = await request(suite.idp.app).post('/v2/developer/webhooks').set(auth).send({ url: receiver.url, events, description: 'tests' });
  expect(created.status).toBe(201);
  return { a, auth, endpoint: created.body as { id: string; secret: string } };
}

const mine = (endpointId: string) => receiver.received.filter((r) => JSON.parse(r.body).data.webhook_endpoint_id === endpointId);

describe('webhook endpoints', () => {
  it('are made with a secret shown once, listed, changed and deleted, only by their organization', async () => {
    const { auth, endpoint } = await owner();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await request(suite.idp.app).get('/v2/developer/webhooks').set(auth);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: endpoint.id, url: receiver.url, enabled: true, disabled_reason: null })]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const changed = await request(suite.idp.app)
      .patch(`/v2/developer/webhooks/${endpoint.id}`)
      .set(auth)
      .send({ events: ['webhook.test'], enabled: false });
    expect(changed.body).toMatchObject({ events: ['webhook.test'], enabled: false, disabled_reason: 'by_developer' });
    const stranger = await owner();
    expect((await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}`).set(stranger.auth)).status).toBe(404);
    expect((await request(suite.idp.app).delete(`/v2/developer/webhooks/${endpoint.id}`).set(stranger.auth)).status).toBe(404);
    expect((await request(suite.idp.app).delete(`/v2/developer/webhooks/${endpoint.id}`).set(auth)).status).toBe(204);
    expect((await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}`).set(auth)).status).toBe(404);
  });

  it('answer 404, not 500, to a change, a rotation and a delete that another delete overtakes', async () => {
    const { auth, endpoint } = await owner();
    const path = `/v2/developer/webhooks/${endpoint.id}`;
    const answers = await overtakenByADelete(suite.db, (tx) => tx.webhookEndpoint.delete({ where: { id: endpoint.id } }), [
      request(suite.idp.app).patch(path).set(auth).send({ description: 'renamed' }),
      request(suite.idp.app).post(`${path}/rotate-secret`).set(auth),
      request(suite.idp.app).delete(path).set(auth),
    ]);
    for (const res of answers) expect([res.status, res.body.error]).toEqual([404, 'webhook_not_found']);
  });

  it('refuses what cannot be a target, naming the field, and changes nothing', async () => {
    const { auth } = await owner();
    const strict = idpHere({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const session = auth.Authorization;
      for (const [url, why] of [
        ['http://hooks.example.com/in', 'must be an https URL'],
        ['https://127.0.0.1/in', 'must not be a private, loopback or link-local address'],
        ['https://[::1]/in', 'must not be a private, loopback or link-local address'],
        ['https://169.254.169.254/latest', 'must not be a private, loopback or link-local address'],
        ['https://10.1.2.3/in', 'must not be a private, loopback or link-local address'],
        ['https://localhost/in', 'must not point to this host'],
        ['https://user:pw@hooks.example.com/in', 'must not carry a user name or password (the signature authenticates)'],
        ['ftp://hooks.example.com/in', 'must be an https URL'],
      ]) {
        const res = await request(strict.app)
          .post('/v2/developer/webhooks')
          .set('Authorization', session)
          .send({ url, events: ['webhook.test'] });
        expect(res.status).toBe(400);
        expect(res.body.details).toContainEqual({ field: 'body.url', message: why });
      }
      const unknown = await request(strict.app)
        .post('/v2/developer/webhooks')
        .set('Authorization', session)
        .send({ url: 'https://hooks.example.com/in', events: ['user.deleted'] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.details[0].field).toBe('body.events[0]');
      expect((await request(strict.app).get('/v2/developer/webhooks').set('Authorization', session)).body.items).toHaveLength(1);
    } finally {
      await strict.deps.close();
    }
  });

  it('are not made with a personal access token in production: the answer holds a secret', async () => {
    const { auth } = await owner();
    const pat = await request(suite.idp.app).post('/v2/developer/personal-access-tokens').set(auth).send({ name: 'ci' });
    const res = await request(suite.idp.app)
      .post('/v2/developer/webhooks')
      .set('Authorization', `Bearer ${pat.body.token}`)
      .send({ url: receiver.url, events: ['webhook.test'] });
    expect(res.status).toBe(401);
  });

  it('are pointed elsewhere only with a session in production; a personal access token changes the rest', async () => {
    const { auth, endpoint } = await owner();
    const pat = {
      Authorization: `Bearer ${(await request(suite.idp.app).post('/v2/developer/personal-access-tokens').set(auth).send({ name: 'ci' })).body.token}`,
    };
    const moved = await request(suite.idp.app).patch(`/v2/developer/webhooks/${endpoint.id}`).set(pat).send({ url: 'https://attacker.example/hooks' });
    expect(moved.status).toBe(401);
    expect((await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}`).set(auth)).body.url).toBe(receiver.url);
    const described = await request(suite.idp.app).patch(`/v2/developer/webhooks/${endpoint.id}`).set(pat).send({ description: 'by CI' });
    expect(described.body.description).toBe('by CI');
    const normalized = await request(suite.idp.app).patch(`/v2/developer/webhooks/${endpoint.id}`).set(auth).send({ url: 'HTTP://Hooks.Example.COM:80/In' });
    expect(normalized.body.url).toBe('http://hooks.example.com/In');
  });
});

describe('webhook delivery', () => {
  it('sends a test event signed as Standard Webhooks says, which its library verifies', async () => {
    const { auth, endpoint } = await owner();
    const sent = await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
    expect(sent.status).toBe(202);
    await deliverer.drain();
    const [got] = mine(endpoint.id);
    expect(got).toBeDefined();
    expect(new Webhook(endpoint.secret).verify(got!.body, headersOf(got!))).toMatchObject({ type: 'webhook.test', data: { webhook_endpoint_id: endpoint.id } });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got!.body, headersOf(got!))).toThrow();
    const log = await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}/deliveries`).set(auth);
    expect(log.body.items).toEqual([
      expect.objectContaining({
        id: sent.body.delivery_id,
        event_type: 'webhook.test',
        status: 'succeeded',
        attempts: 1,
        last_response_status: 200,
        webhook_id: got!.headers['webhook-id'],
      }),
    ]);
  });

  it('tells of an approval and a revocation, in order, with ids the integrator holds and no personal data', async () => {
    const { a, endpoint } = await owner();
    const before = receiver.received.length;
    const t = await issueTokens(suite.idp.app, a);
    await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    await deliverer.drain();
    const events = receiver.received
      .slice(before)
      .map((r) => ({ r, body: new Webhook(endpoint.secret).verify(r.body, headersOf(r)) as { type: string; data: Record<string, unknown> } }))
      .filter(({ body }) => body.data.authorization_id === t.authorizationId);
    const ids = { authorization_id: t.authorizationId, client_id: a.confidential.client_id, app_scoped_user_id: t.app_scoped_user_id };
    expect(events.map(({ body }) => body)).toEqual([
      { type: 'authorization.approved', timestamp: expect.any(String), data: { ...ids, scopes: t.granted_scopes } },
      { type: 'authorization.revoked', timestamp: expect.any(String), data: { ...ids, reason: 'client' } },
    ]);
    for (const { r } of events) expect(r.body).not.toContain(a.user.email);
  });

  it('never lets an authorization’s revocation overtake its approval, even when the approval had to be retried', async () => {
    const { a, auth, endpoint } = await owner();
    const before = receiver.received.length;
    receiver.answer(500);
    const t = await issueTokens(suite.idp.app, a);
    await deliverer.drain();
    await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    await deliverer.drain();
    const types = () =>
      receiver.received
        .slice(before)
        .map((r) => JSON.parse(r.body) as { type: string; data: { authorization_id?: string } })
        .filter((e) => e.data.authorization_id === t.authorizationId)
        .map((e) => e.type);
    // The approval failed once and waits for its retry: the revocation waits behind it.
    expect(types()).toEqual(['authorization.approved']);
    const approval = (await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}/deliveries?status=pending`).set(auth)).body.items.find(
      (d: { event_type: string }) => d.event_type === 'authorization.approved',
    );
    await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/deliveries/${approval.id}/retry`).set(auth);
    await deliverer.drain();
    expect(types()).toEqual(['authorization.approved', 'authorization.approved', 'authorization.revoked']);
  });

  it('tells of a proved action with the action and the nullifier only, which a Standard Webhooks verifier accepts', async () => {
    const { a, endpoint } = await owner(['action.proved']);
    const app = suite.idp.app;
    await registerAction(app, await signIn(app, a.user.email, a.user.password), { action: 'vote' }).expect(201);
    const token = await accessToken(app, a.confidential, a.user);
    const proved = await prove(app, token, 'vote', { signal: 'candidate-b' }).expect(201);
    // A refusal is no proof: it tells nothing.
    await prove(app, token, 'vote').expect(409);
    await deliverer.drain();
    const told = receiver.received
      .filter((r) => r.body.includes(proved.body.nullifier))
      .map((r) => ({ r, event: new Webhook(endpoint.secret).verify(r.body, headersOf(r)) as { type: string; timestamp: string; data: object } }));
    expect(told.map(({ event }) => event)).toEqual([
      { type: 'action.proved', timestamp: expect.any(String), data: { action: 'vote', nullifier: proved.body.nullifier } },
    ]);
    const sub = (await request(app).get('/v2/userinfo').set('Authorization', `Bearer ${token}`)).body.sub as string;
    for (const personal of [a.user.email, a.user.id, sub, 'candidate-b', proved.body.signal_hash]) expect(told[0]!.r.body).not.toContain(personal);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(told[0]!.r.body, headersOf(told[0]!.r))).toThrow();
  });

  it('tells once that an authorization’s data window is over', async () => {
    const { a, endpoint } = await owner(['authorization.data_window_ended']);
    const t = await issueTokens(suite.idp.app, a);
    const secret = suite.idp.deps.config.IDP_SECRET;
    // A minute after the window (the application's preset_cache_ttl_seconds) ended, twice: one event.
    const after = new Date(Date.now() + (3600 + 60) * 1000);
    await announceDataWindowEnds(suite.db, secret, after);
    await announceDataWindowEnds(suite.db, secret, after);
    await deliverer.drain();
    const told = receiver.received
      .filter((r) => r.body.includes(t.authorizationId))
      .map((r) => new Webhook(endpoint.secret).verify(r.body, headersOf(r)) as { type: string; timestamp: string; data: Record<string, unknown> });
    expect(told).toEqual([
      {
        type: 'authorization.data_window_ended',
        timestamp: expect.any(String),
        data: {
          authorization_id: t.authorizationId,
          client_id: a.confidential.client_id,
          app_scoped_user_id: t.app_scoped_user_id,
          data_window_ended_at: told[0]?.timestamp,
        },
      },
    ]);
  });

  it('tries a failed delivery again with the same webhook-id, and a retry from the log sends it now', async () => {
    const { auth, endpoint } = await owner();
    receiver.answer(500);
    await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
    await deliverer.drain();
    const log = async () => (await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}/deliveries`).set(auth)).body.items[0];
    const failed = await log();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 500, last_error: 'HTTP 500' });
    // The next attempt comes 5 s later, give or take a fifth.
    const wait = Date.parse(failed.next_attempt_at) - Date.parse(failed.last_attempt_at);
    expect(wait).toBeGreaterThanOrEqual(4_000);
    expect(wait).toBeLessThanOrEqual(6_000);
    const retried = await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`).set(auth);
    expect(retried.status).toBe(200);
    await deliverer.drain();
    expect(await log()).toMatchObject({ status: 'succeeded', attempts: 2, last_response_status: 200 });
    const attempts = mine(endpoint.id);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.headers['webhook-id']).toBe(attempts[0]!.headers['webhook-id']);
  });

  it('counts a 204 as delivered, and a redirect as a failure it does not follow', async () => {
    const { auth, endpoint } = await owner();
    receiver.answer(204, 302);
    await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
    await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
    await deliverer.drain();
    const items = (await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}/deliveries`).set(auth)).body.items;
    expect(items.map((d: { status: string; last_response_status: number }) => [d.status, d.last_response_status]).sort()).toEqual([
      ['pending', 302],
      ['succeeded', 204],
    ]);
  });

  it('disables an endpoint after five days of failures, and tells the organization’s other endpoints so', async () => {
    const { auth, endpoint } = await owner(['webhook.test']);
    const watcher = (
      await request(suite.idp.app)
        .post('/v2/developer/webhooks')
        .set(auth)
        .send({ url: receiver.url, events: ['webhook.endpoint_disabled'] })
    ).body as { id: string; secret: string };
    const failingSince = new Date(Date.now() - 6 * 86_400_000);
    await suite.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince } });
    receiver.answer(500);
    await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
    await deliverer.drain();
    expect((await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}`).set(auth)).body).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
    });
    const told = receiver.received.filter((r) => r.body.includes('webhook.endpoint_disabled') && r.body.includes(endpoint.id));
    expect(told).toHaveLength(1);
    expect(new Webhook(watcher.secret).verify(told[0]!.body, headersOf(told[0]!))).toMatchObject({
      type: 'webhook.endpoint_disabled',
      data: { webhook_endpoint_id: endpoint.id, failing_since: failingSince.toISOString() },
    });
    // Enabled again by its developer: a fresh start.
    const enabled = await request(suite.idp.app).patch(`/v2/developer/webhooks/${endpoint.id}`).set(auth).send({ enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('signs with both secrets for a day after a rotation, so the receiver can move over', async () => {
    const { auth, endpoint } = await owner();
    const rotated = await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/rotate-secret`).set(auth);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
    await deliverer.drain();
    const [got] = mine(endpoint.id);
    expect(String(got!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.body.secret).verify(got!.body, headersOf(got!))).toBeTruthy();
    expect(new Webhook(endpoint.secret).verify(got!.body, headersOf(got!))).toBeTruthy();
  });

  it('never reaches a private address when they are not allowed, whatever the endpoint row says', async () => {
    const { auth, endpoint } = await owner();
    const strict = idpHere({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    const strictDeliverer = webhookDeliverer(strict.deps);
    try {
      // Written as if allowed once (or by a name that now resolves inside): refused when sent.
      await suite.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: `https://127.0.0.1:${receiver.port}/hooks` } });
      await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
      await strictDeliverer.drain();
      const [item] = (await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}/deliveries`).set(auth)).body.items;
      expect(item).toMatchObject({ status: 'pending', attempts: 1, last_response_status: null });
      expect(item.last_error).toContain('private or internal address');
      expect(mine(endpoint.id)).toHaveLength(0);
    } finally {
      await strictDeliverer.stop();
      await strict.deps.close();
    }
  });

  it('is shared by replicas: each event once, in order, to an endpoint two deliverers serve', async () => {
    const { auth, endpoint } = await owner();
    const other = idpHere();
    const second = webhookDeliverer(other.deps);
    try {
      const count = 30;
      for (let i = 0; i < count; i++) await request(suite.idp.app).post(`/v2/developer/webhooks/${endpoint.id}/test`).set(auth);
      await Promise.all([deliverer.drain(), second.drain()]);
      const got = mine(endpoint.id).map((r) => String(r.headers['webhook-id']));
      expect(new Set(got).size).toBe(count);
      expect(got).toHaveLength(count);
      const items = (await request(suite.idp.app).get(`/v2/developer/webhooks/${endpoint.id}/deliveries?limit=100`).set(auth)).body.items as {
        webhook_id: string;
      }[];
      // The log is newest first; the receiver saw them oldest first.
      expect(got).toEqual(items.map((d) => d.webhook_id).reverse());
    } finally {
      await second.stop();
      await other.deps.close();
    }
  });
});
