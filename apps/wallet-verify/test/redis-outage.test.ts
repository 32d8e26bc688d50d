import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrange, buildService } from './helpers.js';

// A Redis of this suite's own, so it can be stopped and started without disturbing others.
let port: number;
let redis: ChildProcess | undefined;
let db: Db;
const closers: (() => Promise<void>)[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = server.address() as { port: number };
      server.close(() => resolve(p));
    });
  });
}

async function startRedis(): Promise<void> {
  // Only stdout is read (for readiness); the pipes are closed with the process (stopRedis), or the
  // jest worker would be held open by them after the suite.
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    redis!.stdout!.on('data', (d) => String(d).includes('Ready to accept connections') && resolve());
    redis!.once('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
  });
}

async function stopRedis(): Promise<void> {
  const proc = redis;
  redis = undefined;
  if (!proc || proc.exitCode !== null) return;
  await new Promise((resolve) => {
    proc.once('exit', resolve);
    proc.kill('SIGKILL');
  });
  proc.stdout?.destroy();
}

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await probe();
  }
  return value;
}

beforeAll(async () => {
  db = testDb();
  port = await freePort();
  await startRedis();
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await stopRedis();
  await db.$disconnect();
});

function service(env: NodeJS.ProcessEnv, clock?: () => number) {
  const built = buildService({ REDIS_URL: `redis://127.0.0.1:${port}`, ...env }, clock);
  closers.push(() => built.deps.close());
  return built.app;
}

describe('Redis on the request path', () => {
  it('costs one round trip per verification, the rate limit, once key and wallet are known', async () => {
    // Eleven requests within a second: above the default burst of 10, which is not what this measures.
    const { key, human } = await arrange(db, { burstLimit: 100 });
    const app = service({});
    const hit = () => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key);
    expect((await hit()).status).toBe(200);
    // This suite's Redis serves nobody else: every command it sees is this app's.
    const { Redis } = await import('ioredis');
    const client = new Redis(port, '127.0.0.1');
    const monitor = await client.monitor();
    const sent: string[] = [];
    // Commands a Lua script runs are reported with the source "lua": they are not round trips.
    monitor.on('monitor', (_time: string, args: string[], source: string) => source !== 'lua' && sent.push(String(args[0]).toLowerCase()));
    try {
      for (let i = 0; i < 10; i++) expect((await hit()).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      expect(sent).toEqual(Array(10).fill('evalsha'));
    } finally {
      // Both connections: the one monitor() was called on would otherwise reconnect for ever once
      // this suite stops its Redis, holding the test worker open.
      monitor.disconnect();
      client.disconnect();
    }
  });
});

describe('when Redis goes away and comes back', () => {
  it('fails closed by default, reports it on /ready, and recovers', async () => {
    const { key, human } = await arrange(db);
    const app = service({});
    const hit = () => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key);
    expect((await hit()).status).toBe(200);

    await stopRedis();
    const refused = await hit();
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      error: 'rate_limiter_unavailable',
      error_description: 'Rate limiting is unavailable; try again shortly',
      request_id: expect.any(String),
    });
    expect(refused.headers['retry-after']).toBe('5');
    const ready = await request(app).get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toContainEqual(
      expect.objectContaining({ name: 'redis', ok: false, details: expect.objectContaining({ on_redis_failure: 'closed', degraded: true }) }),
    );

    await startRedis();
    const back = await eventually(hit, (r) => r.status === 200);
    expect(back.status).toBe(200);
    expect((await request(app).get('/ready')).status).toBe(200);
  });

  it('failing open, limits each replica to its share and stays ready (degraded)', async () => {
    const { key, human } = await arrange(db, { hourlyLimit: 1000, burstLimit: 10 });
    const frozen = Date.parse('2026-11-22T10:00:00Z');
    const app = service({ RATE_LIMIT_ON_REDIS_FAILURE: 'open', RATE_LIMIT_REPLICAS: '2' }, () => frozen);
    expect((await request(app).get('/ready')).status).toBe(200);
    const hit = () => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key);
    await stopRedis();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await hit()).status);
    // Burst 10 ÷ 2 replicas = 5 per replica per second.
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const ready = await request(app).get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toContainEqual(
      expect.objectContaining({ name: 'redis', ok: true, details: expect.objectContaining({ on_redis_failure: 'open', degraded: true }) }),
    );
    await startRedis();
  });
});
