import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { SUBJECT, useIssuer } from '../helpers.js';

const suite = useIssuer();

const post = (path: string, body: unknown, key = suite.token) =>
  request(suite.issuer.app)
    .post(path)
    .set('X-API-Token', key)
    .send(body as object);

describe('malformed issue requests answer 400 naming the field, never 500', () => {
  it.each([
    [{ subject_address: SUBJECT.toLowerCase(), claims: {} }, 'body.subject_address', /EIP-55/],
    [{ subject_address: '0x123', claims: {} }, 'body.subject_address', /40 hexadecimal digits/],
    [{ claims: {} }, 'body.subject_address', /./],
    [{ subject_address: SUBJECT, claims: [1, 2] }, 'body.claims', /JSON object/],
    [{ subject_address: SUBJECT, claims: 'yes' }, 'body.claims', /JSON object/],
    [{ subject_address: SUBJECT }, 'body.claims', /JSON object/],
    [{ subject_address: SUBJECT, claims: {}, valid_until: 'tomorrow' }, 'body.valid_until', /ISO 8601/],
    [{ subject_address: SUBJECT, claims: {}, extra: 1 }, 'body', /extra/],
    [{ subject_address: SUBJECT, claims: { nickname: null } }, 'body.claims.nickname', /null/],
    [{ subject_address: SUBJECT, claims: { type: 'x' } }, 'body.claims.type', /reserved/],
    [{ subject_address: SUBJECT, claims: { id: 'x' } }, 'body.claims.id', /reserved/],
    [{ subject_address: SUBJECT, claims: { name: 'x' } }, 'body.claims.name', /reserved/],
    [{ subject_address: SUBJECT, claims: { profile: { exp: 1 } } }, 'body.claims.profile.exp', /reserved/],
    [{ subject_address: SUBJECT, claims: { '@id': 'x' } }, 'body.claims.@id', /not a claim name/],
    [{ subject_address: SUBJECT, claims: { 'http://x': 1 } }, 'body.claims.http://x', /not a claim name/],
    [{ subject_address: SUBJECT, claims: { tags: ['a', 'a'] } }, 'body.claims.tags[1]', /signed as sets/],
    [{ subject_address: SUBJECT, claims: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } } }, 'body.claims.a.b.c.d.e.f.g.h.i', /deeper than 8/],
  ])('%j', async (body, field, message) => {
    const res = await post('/credentials/issue', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  const vcBase = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiableCredential'],
    issuer: 'did:key:zUC7xyz',
    credentialSubject: { member: true },
  };
  it.each([
    [{ ...vcBase, '@context': ['https://example.org/credentials/v1'] }, 'body.credential.@context', /must start with/],
    [{ ...vcBase, type: ['Other'] }, 'body.credential.type', /VerifiableCredential/],
    [{ ...vcBase, credentialSubject: 'me' }, 'body.credential.credentialSubject', /./],
    [{ ...vcBase, proof: { type: 'x' } }, 'body.credential.proof', /absent/],
    [{ ...vcBase, credentialSubject: { nickname: null } }, 'body.credential.credentialSubject.nickname', /null/],
    [vcBase, 'credential.issuer', /this issuer's DID/],
  ])('VC API %j', async (credential, field, message) => {
    const res = await post('/credentials/issue', { credential });
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  it('refuses a credential whose context is not bundled, without fetching it', async () => {
    const did = (await post('/credentials/issue', { subject_address: SUBJECT, claims: { a: 1 } })).body.credential.issuer;
    const credential = {
      '@context': ['https://www.w3.org/ns/credentials/v2', 'https://example.com/private-context'],
      type: ['VerifiableCredential'],
      issuer: did,
      credentialSubject: { a: 1 },
    };
    const res = await post('/credentials/issue', { credential });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_credential', error_description: expect.stringContaining('https://example.com/private-context') });
  });

  it('answers 400 for invalid JSON and for a verify body without a credential', async () => {
    const bad = await request(suite.issuer.app)
      .post('/credentials/issue')
      .set('X-API-Token', suite.token)
      .set('content-type', 'application/json')
      .send('{"claims":');
    expect(bad.status).toBe(400);
    const verify = await post('/credentials/verify', { credential: 'x' });
    expect(verify.status).toBe(400);
    expect(verify.body.details[0].field).toBe('body.credential');
  });
});
