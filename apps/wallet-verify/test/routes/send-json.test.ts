import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { sendJson } from '../../src/routes/send-json.js';

const body = { wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', is_human: true, note: 'naïve ✓' };

// The same app twice, as the kit builds it (no ETag), answering with Express's res.json or with sendJson.
const app = express().set('etag', false);
app.get('/express', (_req, res) => void res.json(body));
app.get('/ours', (_req, res) => sendJson(res, body));

const answer = ({ status, headers, text }: request.Response) => {
  const { date: _date, ...rest } = headers;
  return { status, headers: rest, text };
};

describe('sendJson', () => {
  it('sends what res.json sends: the same body, Content-Type and Content-Length', async () => {
    const ours = await request(app).get('/ours');
    expect(answer(ours)).toEqual(answer(await request(app).get('/express')));
    expect(ours.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ours.body).toEqual(body);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const ours = await request(app).head('/ours');
    expect(answer(ours)).toEqual(answer(await request(app).head('/express')));
    expect(ours.text).toBeUndefined();
  });

  it.each([
    ['If-None-Match: * (304, even without an ETag)', { 'If-None-Match': '*' }],
    ['If-None-Match with a tag', { 'If-None-Match': '"abc"' }],
    ['If-Modified-Since', { 'If-Modified-Since': new Date().toUTCString() }],
  ])('answers a conditional request as res.json does: %s', async (_name, conditions) => {
    const ours = await request(app).get('/ours').set(conditions);
    expect(answer(ours)).toEqual(answer(await request(app).get('/express').set(conditions)));
  });
});
