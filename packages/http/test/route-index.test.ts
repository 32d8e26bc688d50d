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
  const guarded = Router();
  guarded.use((req, res, next) => (req.headers['x-stop'] ? void res.status(403).json({ by: 'guard' }) : next()));
  guarded.route('/guarded').get((_req, res) => void res.json({ by: 'guarded' }));
  const last = Router();
  last.route('/after-guard').get((_req, res) => void res.json({ by: 'last' }));
  return [templates, literal, later, guarded, last];
}

function app(indexed: boolean): Express {
  const a = express();
  const all = routers();
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
});
