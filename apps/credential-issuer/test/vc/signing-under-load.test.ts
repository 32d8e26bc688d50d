import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { buildIssuer, SUBJECT, useIssuer } from '../helpers.js';

const suite = useIssuer();

const post = (path: string, body: unknown, key = suite.token) =>
  request(suite.issuer.app)
    .post(path)
    .set('X-API-Token', key)
    .send(body as object);

describe('the signing pool', () => {
  it('keeps /health answering while a batch is being signed', async () => {
    let settled = 0;
    const batch = Array.from({ length: 6 }, () =>
      post('/credentials/issue', { subject_address: SUBJECT, claims: { a: 1, b: 'two', c: [3, 4] } }).then((r) => {
        settled++;
        return r.status;
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    const health = await request(suite.issuer.app).get('/health');
    expect(health.status).toBe(200);
    expect(settled).toBeLessThan(6);
    expect(await Promise.all(batch)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('refuses with 503 and Retry-After when its queue is full, never building a backlog', async () => {
    const small = buildIssuer({ SIGNING_WORKERS: '1', SIGNING_QUEUE_LIMIT: '1' });
    try {
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          request(small.app)
            .post('/credentials/issue')
            .set('X-API-Token', suite.token)
            .send({ subject_address: SUBJECT, claims: { a: 1 } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
      const refused = results.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused[0]!.headers['retry-after']).toBe('1');
      expect(refused[0]!.body.error).toBe('signing_queue_full');
    } finally {
      await small.deps.close();
    }
  });
});
