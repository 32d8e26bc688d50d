import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import {
  ConfigError,
  createBaseApp,
  createLogger,
  finishApp,
  handle,
  healthRouter,
  HttpError,
  methodNotAllowed,
  parseEnv,
  RateLimitedError,
  baseServiceEnv,
  env,
} from '../src/index.js';

const silent = createLogger({ name: 'test', level: 'silent' });

function testApp() {
  const app = createBaseApp({ logger: silent, bodyLimit: '1kb', maxBodyDepth: 5 });
  app
    .route('/things')
    .post(
      handle(
        { body: z.object({ name: z.string().min(1), count: z.number().int() }), query: z.object({ dry: z.enum(['yes', 'no']).optional() }) },
        ({ body }, _req, res) => {
          res.status(201).json(body);
        },
      ),
    )
    .all(methodNotAllowed);
  app.get('/typed', () => {
    throw new RateLimitedError(7, 'slow down');
  });
  app.get('/teapot', () => {
    throw new HttpError(418, 'teapot', 'short and stout');
  });
  app.get('/boom', async () => {
    throw new Error('secret internals at /srv/app.js:12');
  });
  app.get('/outage', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { outage: true });
  });
  return finishApp(app, (err) => (err as { outage?: boolean }).outage === true);
}

describe('the HTTP kit', () => {
  const app = testApp();

  it('answers 400 invalid_json for a malformed JSON body, never 500', async () => {
    const res = await request(app).post('/things').set('content-type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_json', error_description: 'The request body is not valid JSON', request_id: expect.any(String) });
  });

  it.each(['gzip', 'deflate', 'br'])('answers 400, not 500, for a plain body labelled Content-Encoding: %s', async (encoding) => {
    const res = await request(app).post('/things').set('content-type', 'application/json').set('content-encoding', encoding).send('{"name":"x","count":1}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_body', error_description: expect.stringMatching(/Content-Encoding/), request_id: expect.any(String) });
  });

  it('answers 413 for a body over the size limit', async () => {
    const res = await request(app)
      .post('/things')
      .send({ name: 'x'.repeat(2000), count: 1 });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('refuses bodies nested deeper than the limit', async () => {
    const res = await request(app)
      .post('/things')
      .send({ a: { b: { c: { d: { e: { f: 1 } } } } } });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toMatch(/deeper than 5 levels/);
  });

  it('lists every offending field in one 400', async () => {
    const res = await request(app).post('/things?dry=maybe').send({ name: '', count: 1.5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.count', 'body.name', 'query.dry']);
    expect(res.body.error_description).toMatch(/^body\.name: .+ \(and 2 more\)$/);
  });

  it('passes parsed input to the handler', async () => {
    const res = await request(app).post('/things').send({ name: 'a', count: 2, extra: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'a', count: 2 });
  });

  it('maps typed errors to their status, body and headers', async () => {
    const res = await request(app).get('/typed');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body).toEqual({ error: 'rate_limited', error_description: 'slow down', request_id: expect.any(String) });
    const teapot = await request(app).get('/teapot');
    expect(teapot.status).toBe(418);
    expect(teapot.body).toEqual({ error: 'teapot', error_description: 'short and stout', request_id: expect.any(String) });
  });

  it('answers unexpected failures with 500 server_error and the request id, without internals', async () => {
    const res = await request(app).get('/boom').set('X-Request-Id', 'req-123');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'server_error', error_description: 'The server could not complete the request', request_id: 'req-123' });
    expect(res.text).not.toMatch(/secret internals|\/srv\/app/);
  });

  it('answers a dependency outage with 503 and Retry-After, without internals', async () => {
    const res = await request(app).get('/outage').set('X-Request-Id', 'req-9');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'A service this request needs is unavailable; try again shortly',
      request_id: 'req-9',
    });
    expect(res.text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5/);
  });

  it('answers JSON 404 for unknown routes and 405 with Allow for a wrong method', async () => {
    const missing = await request(app).get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('not_found');
    const wrong = await request(app).delete('/things');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
  });

  it('sets security headers and no x-powered-by', async () => {
    const res = await request(app).get('/nope');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('echoes a plain request id and replaces one that could forge log lines', async () => {
    expect((await request(app).get('/nope').set('X-Request-Id', 'abc-1')).headers['x-request-id']).toBe('abc-1');
    const forged = await request(app).get('/nope').set('X-Request-Id', 'a b\tc');
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the request id in every error body, so a user can quote it to support', async () => {
    const res = await request(app).post('/things').set('X-Request-Id', 'support-42').set('content-type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body.request_id).toBe('support-42');
    expect((await request(app).get('/nope').set('X-Request-Id', 'support-43')).body.request_id).toBe('support-43');
  });
});

describe('health and readiness', () => {
  const ok = { name: 'database', run: async () => undefined };
  const failing = { name: 'redis', run: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')) };
  const hanging = { name: 'slow', run: () => new Promise<void>(() => undefined) };

  function appWith(checks: { name: string; run: () => Promise<unknown> }[]) {
    const app = createBaseApp({ logger: silent });
    app.use(healthRouter({ version: '1.2.3', commit: null, checks: checks as never, checkTimeoutMs: 100, clock: () => new Date('2026-01-01T00:00:00Z') }));
    return finishApp(app);
  }

  it('GET /health answers the liveness shape', async () => {
    const res = await request(appWith([])).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', uptime: expect.any(Number), version: '1.2.3', commit: null, timestamp: '2026-01-01T00:00:00.000Z' });
  });

  it('GET /ready is ready when every check passes', async () => {
    const res = await request(appWith([ok])).get('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: [{ name: 'database', ok: true, details: { latency_ms: expect.any(Number) } }] });
  });

  it('GET /ready answers 503 not_ready with the failing check and why', async () => {
    const res = await request(appWith([ok, failing, hanging])).get('/ready');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('not_ready');
    expect(res.body.checks).toEqual([
      expect.objectContaining({ name: 'database', ok: true }),
      { name: 'redis', ok: false, details: { error: 'connect ECONNREFUSED 127.0.0.1:1' } },
      { name: 'slow', ok: false, details: { error: 'no answer within 100 ms' } },
    ]);
  });
});

describe('configuration', () => {
  const schema = z.object(baseServiceEnv(4000));

  it('applies defaults', () => {
    const config = parseEnv(schema, { DATABASE_URL: 'postgresql://localhost/db' });
    expect(config).toMatchObject({ PORT: 4000, HOST: '0.0.0.0', LOG_LEVEL: 'info', BODY_LIMIT: '100kb' });
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('takes a Redis Cluster by URL or by its nodes', () => {
    const base = { DATABASE_URL: 'postgresql://x/y' };
    expect(parseEnv(schema, { ...base, REDIS_URL: 'rediss+cluster://u:p@a.internal:7000,10.0.0.2:7001' }).REDIS_URL).toBe(
      'rediss+cluster://u:p@a.internal:7000,10.0.0.2:7001',
    );
    expect(parseEnv(schema, { ...base, REDIS_CLUSTER_NODES: 'a:7000,b:7001' }).REDIS_CLUSTER_NODES).toBe('a:7000,b:7001');
  });

  it('takes an optional read replica and its read-after-write window (5 s unless set)', () => {
    const base = { DATABASE_URL: 'postgresql://x/y' };
    const unset = parseEnv(schema, base);
    expect(unset.DATABASE_READ_URL).toBeUndefined();
    expect(unset.DATABASE_READ_AFTER_WRITE_SECONDS).toBe(5);
    expect(parseEnv(schema, { ...base, DATABASE_READ_URL: 'postgresql://replica/y', DATABASE_READ_AFTER_WRITE_SECONDS: '2' })).toMatchObject({
      DATABASE_READ_URL: 'postgresql://replica/y',
      DATABASE_READ_AFTER_WRITE_SECONDS: 2,
    });
  });

  it('reads TRUST_PROXY as Express expects it', () => {
    const base = { DATABASE_URL: 'postgresql://x/y' };
    expect(parseEnv(schema, { ...base, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseEnv(schema, { ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv(schema, { ...base, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
    const app = createBaseApp({ logger: silent, trustProxy: parseEnv(schema, { ...base, TRUST_PROXY: 'true' }).TRUST_PROXY });
    expect(app.get('trust proxy')).toBe(true);
  });

  it.each([
    [{}, /^Invalid configuration: DATABASE_URL: .* \(it is not set\)$/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL: must be a postgres: or postgresql: URL \(got "mysql:\/\/x"\)$/],
    [{ DATABASE_URL: 'postgresql://x/y', PORT: 'eighty' }, /^Invalid configuration: PORT: /],
    [{ DATABASE_URL: 'postgresql://x/y', REDIS_URL: 'http://x' }, /^Invalid configuration: REDIS_URL: must be a redis: or rediss: URL/],
    [{ DATABASE_URL: 'postgresql://x/y', REDIS_URL: 'redis+cluster://a:7000,b' }, /^Invalid configuration: REDIS_URL: .*redis\+cluster:\/\/host:port/],
    [{ DATABASE_URL: 'postgresql://x/y', REDIS_CLUSTER_NODES: 'a:7000;b:7001' }, /^Invalid configuration: REDIS_CLUSTER_NODES: must be host:port/],
    [{ DATABASE_URL: 'postgresql://x/y', DATABASE_READ_URL: 'mysql://r' }, /^Invalid configuration: DATABASE_READ_URL: must be a postgres: or postgresql: URL/],
    [{ DATABASE_URL: 'postgresql://x/y', DATABASE_READ_AFTER_WRITE_SECONDS: '0' }, /^Invalid configuration: DATABASE_READ_AFTER_WRITE_SECONDS: /],
    [{ DATABASE_URL: 'postgresql://x/y', LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL: /],
    [{ DATABASE_URL: 'postgresql://x/y', REDIS_KEY_PREFIX: 'has space' }, /^Invalid configuration: REDIS_KEY_PREFIX: must be 1 to 64 letters/],
    [{ DATABASE_URL: 'postgresql://x/y', METRICS_TOKEN: 'short' }, /^Invalid configuration: METRICS_TOKEN: must be at least 16 characters/],
    [{ DATABASE_URL: 'postgresql://x/y', METRICS_TOKEN: 'sixteen or more characters' }, /^Invalid configuration: METRICS_TOKEN: must be a bearer token/],
  ])('names the variable in one line: %j', (environment, message) => {
    let error: unknown;
    try {
      parseEnv(schema, environment as NodeJS.ProcessEnv);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('reports every invalid variable at once, one line each, without echoing secrets', () => {
    const withSecret = z.object({ ...baseServiceEnv(4000), SOME_SECRET: env.strongSecret(32) });
    let message = '';
    try {
      parseEnv(withSecret, { DATABASE_URL: 'mysql://x', PORT: 'eighty', SOME_SECRET: 'change-me-to-32-or-more-random-characters' });
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines.map((l) => l.split(':')[1]!.trim()).sort()).toEqual(['DATABASE_URL', 'PORT', 'SOME_SECRET']);
    expect(lines.find((l) => l.includes('SOME_SECRET'))).toMatch(/is a placeholder .*\(41 characters given\)$/);
    expect(message).not.toContain('change-me');
  });

  it.each([
    ['the .env.example placeholder', 'change-me-to-32-or-more-random-characters', /placeholder/],
    ['one repeated character', 'a'.repeat(40), /too predictable/],
    ['two characters', 'abababababababababababababababababababab', /too predictable/],
  ])('refuses %s as a strong secret', (_name, value, message) => {
    const result = env.strongSecret(32).safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message).join(' ')).toMatch(message);
  });

  it('accepts a generated secret', () => {
    expect(env.strongSecret(32).safeParse(randomBytes(36).toString('base64')).success).toBe(true);
  });
});

describe('logging', () => {
  it('redacts credentials from request logs and bodies', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ name: 'test', level: 'debug' }, sink);
    const app = createBaseApp({ logger });
    app.post('/login', (req, res) => {
      req.log.info({ body: req.body }, 'login attempt');
      res.json({ ok: true });
    });
    await request(finishApp(app))
      .post('/login')
      .set('Authorization', 'Bearer top-secret-token')
      .set('Cookie', 'sid=cookie-secret')
      .set('X-SVC-API-Key', 'svck_key_secret')
      .send({ email: 'a@b.c', password: 'hunter2', client_secret: 'shh' });
    const output = lines.join('');
    expect(output).toContain('login attempt');
    for (const secret of ['top-secret-token', 'cookie-secret', 'svck_key_secret', 'hunter2', 'shh']) expect(output).not.toContain(secret);
    expect(output).toContain('[redacted]');
  });

  it.each([
    [false, ['info']],
    [true, ['info', 'info']],
  ])('logs failures at info, and successes too when asked (logAllRequests %s)', async (all, levels) => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createBaseApp({ logger: createLogger({ name: 'test', level: 'info' }, sink), logAllRequests: all });
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    await request(finishApp(app)).get('/ok');
    await request(app).get('/missing');
    const completed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
    expect(completed.map((l) => ({ 30: 'info' })[l.level as 30])).toEqual(levels);
    expect(completed.at(-1)).toMatchObject({ method: 'GET', route: 'unmatched', status: 404 });
  });

  it('logs the route template, never a path parameter (an offer handle in a path is a secret)', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createBaseApp({ logger: createLogger({ name: 'test', level: 'info' }, sink), logAllRequests: true });
    const offers = express.Router();
    offers.get('/:handle', (_req, res) => void res.json({ ok: true }));
    app.use('/credential-offers', offers);
    await request(finishApp(app)).get('/credential-offers/secret-handle-123').expect(200);
    const output = lines.join('');
    expect(output).not.toContain('secret-handle-123');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ route: '/credential-offers/:handle', status: 200 });
  });

  it('answers a path parameter that is not valid percent-encoding with 400, and logs no stack', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createBaseApp({ logger: createLogger({ name: 'test', level: 'info' }, sink) });
    app.get('/v2/presets/:preset_name', (_req, res) => void res.json({ ok: true }));
    const res = await request(finishApp(app)).get('/v2/presets/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', error_description: 'The request path is not valid percent-encoding' });
    expect(lines.join('')).not.toMatch(/unhandled error|URIError|\bat /);
  });
});

describe('handle with guards', () => {
  const guarded = () => {
    const app = createBaseApp({ logger: silent, bodyLimit: '1kb', maxBodyDepth: 5 });
    const seen: string[] = [];
    const guard: express.RequestHandler = async (req, res, next) => {
      seen.push('guard');
      if (req.headers.authorization !== 'yes') throw new HttpError(401, 'unauthorized', 'Who are you?');
      res.locals.who = 'caller';
      next();
    };
    app.post(
      '/guarded',
      handle({ body: z.object({ name: z.string() }) }, guard, ({ body }, _req, res) => {
        res.json({ name: body.name, who: res.locals.who });
      }),
    );
    return { app: finishApp(app), seen };
  };

  it('checks the input before the guard, and the guard before the handler', async () => {
    const { app, seen } = guarded();
    expect((await request(app).post('/guarded').send({ name: 7 })).status).toBe(400);
    expect(seen).toEqual([]);
    expect((await request(app).post('/guarded').send({ name: 'a' })).status).toBe(401);
    const ok = await request(app).post('/guarded').set('authorization', 'yes').send({ name: 'a' });
    expect(ok.body).toEqual({ name: 'a', who: 'caller' });
  });
});
