import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { testDatabaseUrl, testRedisUrl } from '@svc/testkit';
import { REDIS_KEY_PREFIX, SECRET } from '../helpers.js';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The built identity provider as a real process, as integrators meet it. */
export async function startIdentityProvider(): Promise<{ issuer: string; stop(): Promise<void> }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL('../../dist/server.js', import.meta.url))], {
    env: { PATH: process.env.PATH, DATABASE_URL: testDatabaseUrl(), ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}), IDP_SECRET: SECRET, REDIS_KEY_PREFIX, PUBLIC_URL: issuer, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await fetch(`${issuer}/ready`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
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
