import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, startService, testDatabaseUrl, testRedisUrl } from '@svc/testkit';
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
