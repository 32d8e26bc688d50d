// The suite's own PostgreSQL (embedded) and Redis (redis-server), which it may stop and restart,
// seeded with demo data, and the three services as real processes on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { seedDemo, setApiKeyLimits } from '@svc/admin';
import { createPrismaClient, migrate, startEmbeddedPostgres } from '@svc/db';
import { freePort, repoRoot, startService, waitFor } from '@svc/testkit';

const IDP_SECRET = 'reliability-secret-0123456789abcdefghij';
// The services and this process's admin calls seal and open signing keys with the same KEKs, one per service.
process.env.IDP_SIGNING_KEY_KEK ??= 'reliability-idp-kek-9f8e7d6c5b4a3210ZYXWVUTS';
process.env.ISSUER_SIGNING_KEY_KEK ??= 'reliability-issuer-kek-0a1b2c3d4e5f6789QRSTUV';
// Shared by the identity provider and wallet-verify (the per-organization user ids).
process.env.PAIRWISE_SECRET ??= 'reliability-pairwise-7e6d5c4b3a29180fMNOPQR';

function startRedis(port) {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, exited };
}

async function redisUp(port) {
  const { Socket } = await import('node:net');
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1', () => {
      socket.end('PING\r\n');
      resolve(true);
    });
  });
}

export async function startEnvironment(log) {
  const dir = join(repoRoot, '.data', 'reliability', `run-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const pgPort = await freePort();
  const pgOptions = { dataDir: join(dir, 'postgres'), port: pgPort, database: 'svc' };
  log(`PostgreSQL on ${pgPort}`);
  let postgres = await startEmbeddedPostgres(pgOptions);
  await migrate(postgres.url);
  const db = createPrismaClient(postgres.url);
  const now = () => new Date();
  const demo = await seedDemo({ db, now });
  for (const key of Object.values(demo.api_keys)) await setApiKeyLimits({ db, now }, { id: key.id, hourlyLimit: 10_000_000, burstLimit: 100_000 });
  await db.$disconnect();

  const redisPort = await freePort();
  log(`Redis on ${redisPort}`);
  let redis = startRedis(redisPort);
  await waitFor(() => redisUp(redisPort), 10_000, 'redis-server');

  const idpPort = await freePort();
  const issuer = `http://127.0.0.1:${idpPort}`;
  // Limits never cap a scenario: the demo keys' 10 000 000 an hour hold under a raised platform
  // maximum and organization budget.
  const shared = {
    DATABASE_URL: postgres.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    LOG_LEVEL: 'error',
    API_KEY_MAX_HOURLY_LIMIT: '10000000',
    API_KEY_MAX_BURST_LIMIT: '100000',
    ORGANIZATION_HOURLY_LIMIT: '10000000',
    ORGANIZATION_BURST_LIMIT: '100000',
  };
  // Every identity-provider replica of the suite (the webhook scenario starts more) runs with this.
  const idpEnv = {
    ...shared,
    PUBLIC_URL: issuer,
    IDP_SECRET,
    RATE_LIMIT_DEFAULT: '100000000',
    AUTHORIZE_RATE_LIMIT: '100000000',
    AUTH_FAILURE_LIMIT: '100000000',
    // Its webhook receiver listens on 127.0.0.1, and its developers sign up themselves.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    CONSOLE_SIGNUP: 'open',
  };
  const [idp, verify, issuerService] = await Promise.all([
    startService('identity-provider', { ...idpEnv, PORT: String(idpPort) }),
    startService('wallet-verify', shared),
    startService('credential-issuer', { ...shared, SIGNING_WORKERS: '1' }),
  ]);
  log('services up');
  return {
    demo,
    dir,
    services: { 'identity-provider': idp, 'wallet-verify': verify, 'credential-issuer': issuerService },
    databaseUrl: () => postgres.url,
    idpEnv,
    redis: {
      stop: async () => {
        redis.child.kill('SIGKILL');
        await redis.exited;
      },
      start: async () => {
        redis = startRedis(redisPort);
        await waitFor(() => redisUp(redisPort), 10_000, 'redis-server');
      },
    },
    postgres: {
      stop: () => postgres.stop(),
      start: async () => {
        postgres = await startEmbeddedPostgres(pgOptions);
      },
    },
    async stop() {
      await Promise.all([idp.stop(), verify.stop(), issuerService.stop()]);
      redis.child.kill('SIGKILL');
      await postgres.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
