import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from '@jest/globals';
import type { Db } from '@svc/db';
import { freePort, startService, testDatabaseUrl, testDb, testRedisUrl } from '@svc/testkit';
import { REDIS_KEY_PREFIX, SECRET } from '../helpers.js';

/** The built identity provider as a real process, as integrators meet it. */
export async function startIdentityProvider(): Promise<{ issuer: string; stop(): Promise<void> }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const service = await startService('identity-provider', {
    PORT: String(port),
    DATABASE_URL: testDatabaseUrl(),
    ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    IDP_SECRET: SECRET,
    REDIS_KEY_PREFIX,
    PUBLIC_URL: issuer,
  });
  return { issuer, stop: service.stop };
}

/** A client's redirect endpoint: records the query it is sent and answers a small page. */
export async function startCallbackServer(): Promise<{ url: string; hits: URL[]; close(): Promise<void> }> {
  const hits: URL[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(new URL(req.url!, 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>callback received</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

/** A Prisma client, the running provider and a callback server for one e2e suite. */
export function useRunningIdp(): {
  readonly db: Db;
  readonly idp: Awaited<ReturnType<typeof startIdentityProvider>>;
  readonly callback: Awaited<ReturnType<typeof startCallbackServer>>;
} {
  const held = {} as { db: Db; idp: Awaited<ReturnType<typeof startIdentityProvider>>; callback: Awaited<ReturnType<typeof startCallbackServer>> };
  beforeAll(async () => {
    held.db = testDb();
    held.idp = await startIdentityProvider();
    held.callback = await startCallbackServer();
  });
  afterAll(async () => {
    await held.idp.stop();
    await held.callback.close();
    await held.db.$disconnect();
  });
  return held;
}
