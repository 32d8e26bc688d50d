import { describe, expect, it } from '@jest/globals';
import { contractChecked } from '@svc/testkit';
import request from 'supertest';
import { Router } from 'express';
import { z } from 'zod';
import { createLogger, createServiceApp, errorResponses, Metrics, openApiDocument, type ApiSpec } from '../src/index.js';

const ZItem = z.object({ id: z.string(), tags: z.array(z.string()).optional() }).meta({ id: 'Item' });
const API: ApiSpec = {
  title: 'Test',
  description: 'A service for the kit’s own tests',
  operations: [
    {
      method: 'get',
      path: '/items/{id}',
      tag: 'Items',
      summary: 'One item',
      security: [['bearer']],
      params: z.object({ id: z.string() }),
      query: z.object({ expand: z.enum(['tags']).optional(), limit: z.coerce.number().int().max(10).default(5) }),
      responses: { 200: { description: 'The item', schema: ZItem }, ...errorResponses({ 404: 'No such item' }) },
    },
    {
      method: 'post',
      path: '/items',
      tag: 'Items',
      summary: 'Make one',
      body: ZItem,
      responses: { 201: { description: 'Made', schema: z.object({ items: z.array(ZItem) }) } },
    },
  ],
};

function serviceApp(mount: (router: Router) => void) {
  const router = Router();
  mount(router);
  const options = {
    logger: createLogger({ name: 'test', level: 'silent' }),
    metrics: new Metrics('test', { processMetrics: false }),
    version: '1.2.3',
    checks: [],
    config: { BODY_LIMIT: '1kb' },
    api: API,
    serverUrl: '/',
  };
  return createServiceApp(options, { routers: [router] });
}

describe('openApiDocument', () => {
  const doc = openApiDocument(API, { version: '1.2.3', servers: [{ url: '/' }] }) as any;

  it('hoists named schemas into components and points at them', () => {
    expect(doc.components.schemas.Item).toMatchObject({ type: 'object', required: ['id'], additionalProperties: false });
    expect(doc.components.schemas.ItemInput).toMatchObject({ type: 'object', required: ['id'] });
    expect(doc.paths['/items/{id}'].get.responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Item' });
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('describes parameters with their requiredness, and adds 405, 413, 500 and 503 to every operation', () => {
    expect(doc.paths['/items/{id}'].get.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['expand', 'query', false],
      ['limit', 'query', false],
    ]);
    expect(Object.keys(doc.paths['/items/{id}'].get.responses).sort()).toEqual(['200', '404', '405', '500', '503']);
    expect(Object.keys(doc.paths['/items'].post.responses).sort()).toEqual(['201', '405', '413', '500', '503']);
    expect(doc.components.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
  });
});

describe('contractChecked', () => {
  it('reports an undocumented member, status, media type and operation, and nothing for documented answers', async () => {
    const app = serviceApp((a) => {
      a.get('/items/:id', (req, res) => {
        if (req.params.id === 'ok') return void res.json({ id: 'ok' });
        if (req.params.id === 'extra') return void res.json({ id: 'x', secret: 'leak' });
        if (req.params.id === 'teapot') return void res.status(418).json({ error: 'teapot' });
        res.type('text').send('plain');
      });
      a.get('/undocumented', (_req, res) => void res.json({}));
    });
    const checked = contractChecked(app);
    for (const path of ['/items/ok', '/items/extra', '/items/teapot', '/items/text', '/undocumented', '/health', '/nowhere'])
      await request(checked.app).get(path);
    expect(await checked.violations()).toEqual([
      'GET /items/extra → 200: body must NOT have additional properties',
      'GET /items/teapot → 418: status not documented',
      'GET /items/text → 200: text/plain not documented (application/json)',
      'GET /undocumented → 200: no such operation in the document',
    ]);
  });
});

describe('the platform endpoints', () => {
  it('serve the document, a script-free page of it, and metrics counted by route template', async () => {
    const app = serviceApp((a) => a.get('/items/:id', (_req, res) => void res.json({ id: '1' })));
    expect((await request(app).get('/openapi.json')).body).toMatchObject({ openapi: '3.1.0', info: { title: 'Test', version: '1.2.3' } });
    const page = await request(app).get('/docs');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(page.text).toContain('<a href="#schema-Item">Item</a>');
    // Schemas read as tables of members, not raw JSON.
    expect(page.text).toMatch(
      /<h3 id="schema-Item">Item<\/h3><table><tr><th>member<\/th><th>required<\/th><th>type and meaning<\/th><\/tr><tr><td><code>id<\/code><\/td><td>yes<\/td><td>string/,
    );
    expect(page.text).not.toContain('<script');
    await request(app).get('/items/a');
    await request(app).get('/items/b');
    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toContain('http_requests_total{method="GET",route="/items/:id",status="200",service="test"} 2');
  });
});
