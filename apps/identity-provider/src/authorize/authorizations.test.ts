import { describe, expect, it } from '@jest/globals';
import type { Application } from '../clients/application.js';
import { checkAuthorizeRequest, offeredScopes, redirectWith } from './authorizations.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const app = { allowedScopes: ['openid', 'identity:read', 'email:read'] } as unknown as Application;
const request = (changes: Partial<Parameters<typeof checkAuthorizeRequest>[1]> = {}) => ({
  scope: 'openid identity:read',
  responseType: 'code',
  codeChallenge: CHALLENGE,
  codeChallengeMethod: 'S256',
  ...changes,
});

describe('checkAuthorizeRequest', () => {
  it('answers the distinct scopes of a code request with an S256 challenge', () => {
    expect(checkAuthorizeRequest(app, request({ scope: 'openid  identity:read openid' }))).toEqual(['openid', 'identity:read']);
  });

  it('refuses another response type, a missing or malformed PKCE challenge, and scopes unknown or not allowed', () => {
    expect(() => checkAuthorizeRequest(app, request({ responseType: 'token' }))).toThrow(/Only response_type=code/);
    expect(() => checkAuthorizeRequest(app, request({ codeChallenge: undefined }))).toThrow(/code_challenge is required/);
    expect(() => checkAuthorizeRequest(app, request({ codeChallengeMethod: 'plain' }))).toThrow(/must be S256/);
    expect(() => checkAuthorizeRequest(app, request({ codeChallenge: 'short' }))).toThrow(/43 base64url characters/);
    expect(() => checkAuthorizeRequest(app, request({ scope: ' ' }))).toThrow(/scope is required/);
    expect(() => checkAuthorizeRequest(app, request({ scope: 'openid everything' }))).toThrow(/Unknown scopes: everything/);
  });
});

describe('redirectWith', () => {
  it('adds the parameters that are set and the issuer (RFC 9207), keeping the redirect URI’s own query', () => {
    const url = new URL(redirectWith('https://app.example/cb?tenant=7', 'https://id.example', { code: 'c', state: undefined }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ tenant: '7', code: 'c', iss: 'https://id.example' });
  });
});

describe('offeredScopes', () => {
  it('offers what the client may have, in the order asked', () => {
    expect(offeredScopes({ requestedScopes: ['identity:read', 'openid'], application: { allowedScopes: ['openid', 'identity:read'] } })).toEqual([
      'identity:read',
      'openid',
    ]);
  });
});
