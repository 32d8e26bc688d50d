import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { compileErrors, validate } from '@readme/openapi-parser';
import { ZLiveness, ZReadiness } from '@svc/schemas';
import { cleanEnv, freePort, repoRoot, SERVICES, startServer, testDatabaseUrl, testRedisUrl, waitFor, type Running } from '@svc/testkit';

const started: Running[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
  }
});

async function boot(service: (typeof SERVICES)[number], env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const server = startServer(
    service,
    cleanEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: testDatabaseUrl(),
      IDP_SECRET: 'platform-test-secret-0123456789abcdef',
      ...env,
    }),
  );
  started.push(server);
  await waitFor(
    () =>
      fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      ),
    20_000,
    `${service} to listen`,
    server.output,
  );
  return { port, server, get: (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${path}`, init) };
}

const redis = testRedisUrl();

describe.each(SERVICES)('%s', (service) => {
  const version = JSON.parse(readFileSync(`${repoRoot}apps/${service}/package.json`, 'utf8')).version;

  it('answers /health with its version and commit, and /ready when the database and Redis answer', async () => {
    const { get } = await boot(service, { GIT_COMMIT: 'abc1234', ...(redis ? { REDIS_URL: redis } : {}) });
    const health = await get('/health');
    const body = ZLiveness.parse(await health.json());
    expect(body).toMatchObject({ status: 'ok', version, commit: 'abc1234' });
    // Listening comes before the first database and Redis connections: ready once they answer
    // (each check has 2 s; on a loaded machine the first connection can take longer).
    let ready = await get('/ready');
    await waitFor(
      async () => {
        ready = await get('/ready');
        return ready.status === 200;
      },
      30_000,
      `${service} to be ready`,
    );
    expect(ready.status).toBe(200);
    const readiness = ZReadiness.parse(await ready.json());
    expect(readiness.status).toBe('ready');
    expect(readiness.checks.slice(0, 2).map((c) => [c.name, c.ok])).toEqual([
      ['database', true],
      ['redis', true],
    ]);
    expect(readiness.checks.every((c) => c.ok)).toBe(true);
  });

  it('publishes a valid OpenAPI 3.1 document, a readable docs page, and metrics behind its token', async () => {
    const token = 'metrics-token-0123456789';
    const { get } = await boot(service, { METRICS_TOKEN: token });
    const doc = (await (await get('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version } });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/ready', '/metrics', '/openapi.json', '/docs']));
    const docs = await get('/docs');
    expect(docs.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const page = await docs.text();
    for (const path of Object.keys(doc.paths)) expect(page).toContain(`<code>${path}</code>`);
    expect((await get('/metrics')).status).toBe(401);
    await get('/nowhere');
    const metrics = await (await get('/metrics', { headers: { authorization: `Bearer ${token}` } })).text();
    expect(metrics).toContain(`http_requests_total{method="GET",route="/health",status="200",service="${service}"}`);
    expect(metrics).toContain(`http_requests_total{method="GET",route="unmatched",status="404",service="${service}"}`);
    expect(metrics).toContain(`http_request_duration_seconds_bucket{le="0.005",service="${service}",method="GET",route="/health"}`);
  });

  it('names itself at / and links its documentation: JSON for API callers, a page for a browser', async () => {
    const { get } = await boot(service, {});
    const title = ((await (await get('/openapi.json')).json()) as { info: { title: string } }).info.title;
    const json = await get('/');
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({
      title,
      description: expect.any(String),
      version,
      links: { docs: '/docs', openapi: '/openapi.json', health: '/health', ready: '/ready' },
    });
    const page = await get('/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`<h1>${title}</h1>`);
    // Styled like /docs: its one style element, allowed by hash under a policy that allows nothing else.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(page.headers.get('content-security-policy')).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none';/);
    for (const link of ['/docs', '/openapi.json', '/health']) expect(html).toContain(`href="${link}"`);
    expect((await get('/', { method: 'POST' })).status).toBe(405);
  });

  it('answers /ready 503 not_ready when the database is unreachable', async () => {
    const deadPort = await freePort();
    const { get } = await boot(service, { DATABASE_URL: `postgresql://postgres@127.0.0.1:${deadPort}/none` });
    const ready = await get('/ready');
    expect(ready.status).toBe(503);
    const body = ZReadiness.parse(await ready.json());
    expect(body.status).toBe('not_ready');
    expect(body.checks.find((c) => c.name === 'database')).toMatchObject({ ok: false, details: { error: expect.any(String) } });
    expect((await get('/health')).status).toBe(200);
  });

  it('answers /ready 503 not_ready when Redis is unreachable', async () => {
    const deadPort = await freePort();
    const { get } = await boot(service, { REDIS_URL: `redis://127.0.0.1:${deadPort}` });
    const ready = await get('/ready');
    expect(ready.status).toBe(503);
    const body = ZReadiness.parse(await ready.json());
    expect(body.checks.find((c) => c.name === 'redis')).toMatchObject({ ok: false });
    expect(body.checks.find((c) => c.name === 'database')).toMatchObject({ ok: true });
  });

  it('stops with one line per bad variable, each naming it, when its configuration is bad', async () => {
    const lines = (output: string) => output.trimEnd().split('\n');
    const oneLineEach = /^Invalid configuration: [A-Z_]+: .+\((got .+|it is not set|\d+ characters given)\)$/;
    const bad = startServer(service, cleanEnv({ PORT: 'eighty', DATABASE_URL: testDatabaseUrl() }));
    started.push(bad);
    expect(await bad.exited).toBe(1);
    expect(lines(bad.output()).every((l) => oneLineEach.test(l))).toBe(true);
    expect(lines(bad.output())).toContainEqual(expect.stringMatching(/^Invalid configuration: PORT: .+\(got "eighty"\)$/));
    const missing = startServer(service, cleanEnv({}));
    started.push(missing);
    expect(await missing.exited).toBe(1);
    expect(lines(missing.output()).every((l) => oneLineEach.test(l))).toBe(true);
    expect(lines(missing.output())).toContainEqual(expect.stringMatching(/^Invalid configuration: DATABASE_URL: .+\(it is not set\)$/));
  });

  it('finishes an in-flight request, then exits 0 on Ctrl-C and the launcher’s SIGTERM, saying so once', async () => {
    const { server, port } = await boot(service, { LOG_LEVEL: 'info' });
    // A request whose body is half sent is in flight at the server for as long as we like.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/nowhere', headers: { 'content-type': 'application/json', 'content-length': '10' } },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.write('{"a":');
      setTimeout(() => {
        // The terminal's SIGINT reaches every process of the group; `npm start` then sends SIGTERM.
        server.child.kill('SIGINT');
        server.child.kill('SIGTERM');
        setTimeout(() => req.end('"bc"}'), 300);
      }, 300);
    });
    const answered = await response;
    expect(answered.status).toBe(404);
    expect(JSON.parse(answered.body)).toMatchObject({ error: 'not_found' });
    expect(await server.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    expect(server.output().match(/shutting down/g)).toHaveLength(1);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  });
});
