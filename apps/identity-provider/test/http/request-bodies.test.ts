import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

describe('compressed-body labels on plain bodies', () => {
  it('answers 400 for Content-Encoding: gzip on a plain body', async () => {
    const res = await request(app())
      .post('/auth/session')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{"email":"a@b.c","password":"x"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_body');
  });
});
