import { describe, expect, it } from '@jest/globals';
import express, { type Express, Router } from 'express';
import request from 'supertest';
import { routeIndex } from '../src/route-index.js';

// The same routers, mounted the plain way and behind the index: every request must be answered
// alike, including where mount order, letter case, a trailing slash or a router-wide middleware
// decides who answers.
function routers(): Router[] {
  const templates = Router();
  templates.route('/items/:id').get((req, res) => void res.json({ by: 'templates', id: req.params.id }));
  const literal = Router();
  literal.route('/items/special').get((_req, res) => void res.json({ by: 'literal' }));
  literal.route('/only-get').get((_req, res) => void res.json({ by: 'literal get' }));
  literal.route('/answers').get((req, res) => void res.json({ by: 'literal', route: req.route.path, baseUrl: req.baseUrl }));
  const later = Router();
  later.route('/only-get').post((_req, res) => void res.json({ by: 'later post' }));
  later.route('/failing').get(() => {
    throw new Error('boom');
  });
  const sectionFirst = Router();
  sectionFirst.route('/:kind/odd').get((req, res) => void res.json({ by: 'parameter first', kind: req.params.kind }));
  const mounted = Router();
  mounted.use('/area', (req, res, next) => (req.headers['x-stop'] ? void res.status(403).json({ by: 'area guard' }) : next()));
  mounted.route('/area/inside').get((_req, res) => void res.json({ by: 'area' }));
  const sectioned = Router();
  sectioned.route('/v2/things/:id').get((req, res) => void res.json({ by: 'sectioned', id: req.params.id }));
  sectioned.route('/v2/things/:id/parts').post((req, res) => void res.json({ by: 'sectioned post', id: req.params.id }));
  const guarded = Router();
  guarded.use((req, res, next) => (req.headers['x-stop'] ? void res.status(403).json({ by: 'guard' }) : next()));
  guarded.route('/guarded').get((_req, res) => void res.json({ by: 'guarded' }));
  const last = Router();
  last.route('/after-guard').get((_req, res) => void res.json({ by: 'last' }));
  return [templates, literal, later, sectionFirst, mounted, sectioned, guarded, last];
}

function app(indexed: boolean, all = routers()): Express {
  const a = express();
  if (indexed) a.use(routeIndex(all));
  for (const r of all) a.use(r);
  a.use((_req, res) => void res.status(404).json({ by: 'not found' }));
  a.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).json({ error: err.message }));
  return a;
}

const REQUESTS: [string, string, Record<string, string>?][] = [
  ['get', '/items/special'],
  ['get', '/items/7'],
  ['get', '/ITEMS/SPECIAL'],
  ['get', '/answers'],
  ['get', '/answers/'],
  ['get', '/Answers?x=1'],
  ['get', '/only-get'],
  ['post', '/only-get'],
  ['put', '/only-get'],
  ['get', '/failing'],
  ['get', '/guarded'],
  ['get', '/after-guard'],
  ['get', '/after-guard', { 'x-stop': '1' }],
  ['get', '/nowhere'],
  ['get', '/v2/things/7'],
  ['get', '/V2/Things/8/'],
  ['post', '/v2/things/9/parts'],
  ['get', '/v2/things/9/parts'],
  ['get', '/v2/odd'],
  ['get', '/items/odd'],
  ['get', '/v2/things'],
  ['get', '/v2/elsewhere/1'],
  ['get', '/area/inside'],
  ['get', '/area/inside', { 'x-stop': '1' }],
  ['get', '/area/elsewhere', { 'x-stop': '1' }],
  ['get', '/v2/things/7', { 'x-stop': '1' }],
];

describe('routeIndex', () => {
  it.each(REQUESTS)('answers %s %s exactly as the routers in order do', async (method, path, headers = {}) => {
    const send = (a: Express) => (request(a) as unknown as Record<string, (p: string) => request.Test>)[method]!(path).set(headers);
    const [plain, indexed] = await Promise.all([send(app(false)), send(app(true))]);
    expect({ status: indexed.status, body: indexed.body }).toEqual({ status: plain.status, body: plain.body });
  });

  it('sends a literal path straight to its router, and what answers there is the same route', async () => {
    const res = await request(app(true)).get('/answers');
    expect(res.body).toEqual({ by: 'literal', route: '/answers', baseUrl: '' });
  });

  it('sends a templated path to its router without offering it to the routers before, past a middleware mounted elsewhere', async () => {
    const all = routers();
    let offered = 0;
    // Express calls a router's handle(req, res, next) when it offers it a request.
    type Handle = (req: unknown, res: unknown, next: unknown) => unknown;
    for (const router of all.slice(0, 5) as unknown as { handle: Handle }[]) {
      const handle = router.handle.bind(router);
      router.handle = (req, res, next) => {
        offered++;
        return handle(req, res, next);
      };
    }
    const res = await request(app(true, all)).get('/v2/things/7');
    expect(res.body).toEqual({ by: 'sectioned', id: '7' });
    expect(offered).toBe(0);
    await request(app(false, all)).get('/v2/things/7');
    expect(offered).toBe(5);
  });
});
