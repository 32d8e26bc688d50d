import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { Metrics, readAuthorization } from '../src/index.js';
import { metricsRouter } from '../src/metrics.js';

const headers = (...values: string[]) => ({
  headers: values.length ? { authorization: values[0] } : {},
  headersDistinct: values.length ? { authorization: values } : {},
});

describe('readAuthorization', () => {
  it('reads a Bearer or DPoP token, whatever the case of its scheme (RFC 7235 §2.1)', () => {
    expect(readAuthorization(headers('Bearer abc.DEF-_~+/=='))).toEqual({ scheme: 'Bearer', token: 'abc.DEF-_~+/==' });
    expect(readAuthorization(headers('bearer abc'))).toEqual({ scheme: 'Bearer', token: 'abc' });
    expect(readAuthorization(headers('DPoP abc'))).toEqual({ scheme: 'DPoP', token: 'abc' });
    expect(readAuthorization(headers('DPOP abc'))).toEqual({ scheme: 'DPoP', token: 'abc' });
  });

  it('finds no token without the header, under another scheme, or in the scheme alone', () => {
    for (const value of [undefined, 'Basic YTpi', 'Bearer', 'Bearerabc', 'Token abc', 'constructor abc', '']) {
      expect(readAuthorization(value === undefined ? headers() : headers(value))).toBeUndefined();
    }
  });

  it('refuses as garbage what is not one space and a token68, and a header sent twice', () => {
    for (const value of ['Bearer  abc', 'Bearer a b', 'Bearer a=b', 'Bearer ab"c', 'DPoP a,b', 'Bearer =']) {
      expect(readAuthorization(headers(value))).toEqual({ scheme: value.startsWith('DPoP') ? 'DPoP' : 'Bearer', token: undefined });
    }
    expect(readAuthorization(headers('Bearer abc', 'Bearer def'))).toEqual({ scheme: 'Bearer', token: undefined });
  });

  it('sees a second Authorization header that Node itself drops', async () => {
    const app = express().get('/', (req, res) => void res.json(readAuthorization(req) ?? null));
    const once = await request(app).get('/').set('Authorization', 'Bearer abc');
    expect(once.body).toEqual({ scheme: 'Bearer', token: 'abc' });
    // superagent sends an array as one header line per value; its types know only one.
    const twice = await request(app)
      .get('/')
      .set('Authorization', ['Bearer abc', 'Bearer def'] as unknown as string);
    expect(twice.body).toEqual({ scheme: 'Bearer' });
  });
});

describe('GET /metrics behind METRICS_TOKEN', () => {
  it('opens to the token as Bearer only', async () => {
    const app = express().use(metricsRouter(new Metrics('test', { processMetrics: false }), 'metrics-token-0123456789'));
    const read = (authorization?: string) => (authorization ? request(app).get('/metrics').set('Authorization', authorization) : request(app).get('/metrics'));
    expect((await read('Bearer metrics-token-0123456789')).status).toBe(200);
    expect((await read('bearer metrics-token-0123456789')).status).toBe(200);
    for (const refused of [undefined, 'DPoP metrics-token-0123456789', 'Bearer  metrics-token-0123456789', 'Bearer other-token-0123456789']) {
      const res = await read(refused);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });
});
