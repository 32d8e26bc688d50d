import { describe, expect, it } from '@jest/globals';
import { credentialsFrom } from './client-auth.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('credentialsFrom (what a request presents to authenticate its client)', () => {
  it('reads client_secret_basic, percent-decoding the id and secret (RFC 6749 §2.3.1)', () => {
    expect(credentialsFrom(basic('svc%3Aapp', 's%25cret'), {})).toEqual({ clientId: 'svc:app', secret: 's%cret', method: 'basic' });
  });

  it('refuses Basic credentials without a colon, with broken percent-encoding, or naming another client in the body', () => {
    expect(() => credentialsFrom(`Basic ${Buffer.from('no-colon').toString('base64')}`, {})).toThrow(/Malformed Basic credentials/);
    expect(() => credentialsFrom(basic('%E0%A4%A', 'x'), {})).toThrow(/percent-encoding/);
    expect(() => credentialsFrom(basic('app-a', 'x'), { client_id: 'app-b' })).toThrow(/differs from the authenticated client/);
  });

  it('reads client_secret_post, a private_key_jwt assertion, or the id alone of a public client', () => {
    expect(credentialsFrom(undefined, { client_id: 'app', client_secret: 's' })).toEqual({ clientId: 'app', secret: 's', method: 'post' });
    expect(credentialsFrom(undefined, { client_id: 'app', client_assertion: 'a.b.c', client_assertion_type: 'jwt-bearer' })).toEqual({
      clientId: 'app',
      assertion: 'a.b.c',
      method: 'private_key_jwt',
    });
    expect(credentialsFrom(undefined, { client_id: 'app' })).toEqual({ clientId: 'app', method: 'none' });
    expect(credentialsFrom(undefined, { client_id: 42 })).toEqual({ clientId: undefined, method: 'none' });
  });
});
