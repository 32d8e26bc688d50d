import { afterAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { buildService } from './helpers.js';

// A replica nobody could reach: the service must never try it.
const service = buildService({ DATABASE_READ_URL: 'postgresql://nobody@127.0.0.1:1/none' });
afterAll(() => service.deps.close());

describe('DATABASE_READ_URL', () => {
  it('is not used: every read goes to the primary, and readiness does not report a replica', async () => {
    expect(service.deps.readDb).toBe(service.deps.db);
    expect(service.deps.reads.enabled).toBe(false);
    const ready = await request(service.app).get('/ready');
    expect(ready.status).toBe(200);
    expect(JSON.stringify(ready.body)).not.toContain('replica');
  });
});
