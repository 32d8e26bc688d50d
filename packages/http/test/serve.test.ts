import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { createBaseApp, createHttpServer, createLogger, finishApp, handle, HttpError, methodNotAllowed } from '../src/index.js';

function testApp() {
  const app = createBaseApp({ logger: createLogger({ name: 'test', level: 'silent' }), bodyLimit: '1kb' });
  app.get('/born', (req, res) => {
    res.json({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response, logs: typeof req.log.info });
  });
  app
    .route('/things')
    .post(handle({ body: z.object({ name: z.string().min(1) }) }, ({ body }, _req, res) => void res.status(201).json(body)))
    .all(methodNotAllowed);
  app.get('/teapot', () => {
    throw new HttpError(418, 'teapot', 'short and stout');
  });
  return { app: finishApp(app), prototypes: { request: app.request, response: app.response } };
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createHttpServer', () => {
  const plain = createServer(testApp().app);
  const born = createHttpServer(testApp().app);
  let urls: { plain: string; born: string };
  beforeAll(async () => {
    urls = { plain: await listening(plain), born: await listening(born) };
  });
  afterAll(async () => {
    await Promise.all([plain, born].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  // Before Node.js 24 they are born with the app's prototypes (re-parenting is slow there); from 24 on, node:http's own.
  const bornWithPrototypes = Number(process.versions.node.split('.')[0]) < 24;
  it(`makes requests and responses ${bornWithPrototypes ? 'that already have' : 'that get from Express'} the app's prototypes on Node.js ${process.versions.node}`, async () => {
    const { app, prototypes } = testApp();
    const server = createHttpServer(app);
    const seen: boolean[] = [];
    server.prependListener('request', (req, res) =>
      seen.push(Object.getPrototypeOf(req) === prototypes.request, Object.getPrototypeOf(res) === prototypes.response),
    );
    const base = await listening(server);
    try {
      expect(await (await fetch(`${base}/born`)).json()).toEqual({ request: true, response: true, logs: 'function' });
      expect(seen).toEqual([bornWithPrototypes, bornWithPrototypes]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    ['GET', '/born', undefined],
    ['POST', '/things', '{"name":"a"}'],
    ['POST', '/things', '{"name":""}'],
    ['POST', '/things', `{"name":"${'x'.repeat(2000)}"}`],
    ['PUT', '/things', undefined],
    ['GET', '/teapot', undefined],
    ['GET', '/nowhere', undefined],
    ['HEAD', '/born', undefined],
  ])('answers %s %s exactly as a plain node:http server does', async (method, path, body) => {
    const send = async (base: string) => {
      const res = await fetch(base + path, { method, body, headers: { 'content-type': 'application/json', 'x-request-id': 'same-id' } });
      const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
      return { status: res.status, headers, body: await res.text() };
    };
    expect(await send(urls.born)).toEqual(await send(urls.plain));
  });

  it('refuses a handler that is not an Express app', () => {
    expect(() => createHttpServer((() => undefined) as never)).toThrow(TypeError);
  });
});
