import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What `res.json(body)` sends for this service's answers (status 200, no ETag: the kit turns
 * ETags off; no Last-Modified; no JSON settings on the app), without what Express spends on
 * every answer to get there: it parses and re-formats the Content-Type twice and checks
 * freshness. A conditional request (If-None-Match: * makes even an answer without ETag "fresh",
 * 304) still goes to res.json, so every answer stays Express's own.
 */
export function sendJson(res: Response, body: object): void {
  const { headers, method } = res.req;
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
    res.json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  if (method === 'HEAD') res.end();
  else res.end(text, 'utf8');
}
