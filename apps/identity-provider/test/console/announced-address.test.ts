import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { buildIdp } from '../helpers.js';

// The console's pages are not operations of the API, so they are driven on the bare app.
let local: ReturnType<typeof buildIdp>;
let proxied: ReturnType<typeof buildIdp>;
beforeAll(() => {
  local = buildIdp({ PUBLIC_URL: 'http://localhost:4999' });
  proxied = buildIdp();
});
afterAll(async () => {
  await local.deps.close();
  await proxied.deps.close();
});

describe('GET /console at an address other than the announced one', () => {
  it('sends a browser from another name of this machine to the same page at the announced address, which says why', async () => {
    const app = createApp(local.deps);
    const res = await request(app).get('/console/signup?lang=de').set('Host', '127.0.0.1:4999');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('http://localhost:4999/console/signup?lang=de&address=moved');
    expect(res.text).toContain('works at http://localhost:4999 only');
    const arrived = await request(app).get('/console?address=moved').set('Host', 'localhost:4999');
    expect(arrived.status).toBe(200);
    expect(arrived.text).toContain('The console works at http://localhost:4999 only');
  });

  it('serves the announced address as it is, and moves nobody whose Host a proxy or another port set (no redirect loop)', async () => {
    const app = createApp(local.deps);
    const here = await request(app).get('/console').set('Host', 'localhost:4999');
    expect(here.status).toBe(200);
    expect(here.text).not.toContain('you were brought here');
    // A local proxy on another port, which rewrote Host to the address it forwards to.
    expect((await request(app).get('/console').set('Host', '127.0.0.1:8080')).status).toBe(200);
    // Behind a proxy in production the Host may be an internal name: the page is served, not moved.
    expect((await request(createApp(proxied.deps)).get('/console').set('Host', '127.0.0.1:4000')).status).toBe(200);
  });

  it('answers a Host it cannot read with the page, not an error', async () => {
    const res = await request(createApp(local.deps)).get('/console').set('Host', 'bad host:99999');
    expect(res.status).toBe(200);
  });

  it('moves no form post: a post from another address is still refused as not from this service’s own page', async () => {
    const res = await request(createApp(local.deps))
      .post('/console/sign-in')
      .set('Host', '127.0.0.1:4999')
      .set('Origin', 'http://127.0.0.1:4999')
      .type('form')
      .send({ email: 'a@example.com', password: 'x', csrf_token: 'x' });
    expect(res.status).toBe(403);
  });
});
