import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, useIdp, pkce, REDIRECT } from '../helpers.js';

const suite = useIdp();
const authorize = (query: Record<string, string>) => request(suite.idp.app).get('/oauth/authorize').query(query);

describe('authorization requests', () => {
  it('never redirects for an unknown client or a redirect_uri that does not match exactly', async () => {
    const { confidential } = await arrange(suite.db);
    const { challenge } = pkce();
    const base = { client_id: confidential.client_id, response_type: 'code', scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const redirect_uri of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'https://evil.example/callback', REDIRECT.toUpperCase()]) {
      const res = await authorize({ ...base, redirect_uri });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body.error).toBe('invalid_request');
    }
    const unknown = await authorize({ ...base, client_id: 'svc_client_nope', redirect_uri: REDIRECT });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_client');
    const page = await authorize({ ...base, redirect_uri: 'https://evil.example/cb' }).set('Accept', 'text/html');
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('redirect_uri does not exactly match');
  });

  it('refuses a control character in a parameter with 400, never 500 (a NUL byte cannot be stored)', async () => {
    const { confidential } = await arrange(suite.db);
    const res = await authorize({
      client_id: confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'a\u0000b',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('control characters');
  });

  it.each([
    [{ code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
    [{ code_challenge_method: 'plain' }, 'invalid_request', /must be S256/],
    [{ response_type: 'token' }, 'unsupported_response_type', /response_type=code/],
    [{ scope: 'openid admin' }, 'invalid_scope', /Unknown scopes: admin/],
    [{ scope: 'kyc:document_number' }, 'invalid_scope', /may not request/],
  ])('redirects %j back with error, state and iss', async (change, error, description) => {
    const { confidential } = await arrange(suite.db);
    const { challenge } = pkce();
    const query: Record<string, string | undefined> = {
      client_id: confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'xyz',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...change,
    };
    const res = await authorize(Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toMatch(description);
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.get('iss')).toBe('https://id.example.com');
  });
});
