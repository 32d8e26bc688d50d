import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, jest } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';

// The pairwise subject is an HMAC: spied on to show one response makes it once, for both tokens.
const keyed = await import('../../src/keys/keyed.js');
const appScopedUserId = jest.fn(keyed.appScopedUserId);
jest.unstable_mockModule('../../src/keys/keyed.js', () => ({ ...keyed, appScopedUserId }));
const { tokenResponse } = await import('../../src/tokens/tokens.js');

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const now = new Date('2026-01-01T00:00:00Z');
const ctx = {
  secret: 'test-secret-0123456789abcdefghijklmnop',
  issuer: 'https://idp.example',
  resource: 'https://idp.example/v2',
  clock: { now: () => now },
  keys: { signer: async () => ({ kid: 'k1', alg: 'RS256' as const, key: privateKey }) },
} as never;
const app = { clientId: 'svc_client_a', organizationId: 'org-1', accessTokenTtlSeconds: 600, fapiProfile: null } as never;
const holder = { id: 'auth-1', userId: 'user-1', authTime: now, acr: null, amr: [], sessionId: null };
const respond = () => tokenResponse(ctx, { app, holder, scopes: ['openid', 'kyc:read'], refreshToken: 'svcrt_x', jkt: undefined, x5t: undefined, now });

describe('a token response', () => {
  it('makes the pairwise subject once for the access token, the id_token and the answer', async () => {
    appScopedUserId.mockClear();
    const res = await respond();
    expect(appScopedUserId).toHaveBeenCalledTimes(1);
    expect(decodeJwt(res.access_token).sub).toBe(res.app_scoped_user_id);
    expect(decodeJwt(res.id_token!).sub).toBe(res.app_scoped_user_id);
  });

  it('encodes a key and type header once, not per token', async () => {
    await respond();
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const res = await respond();
      // The two tokens' claims only: both headers were encoded by the first response.
      expect(stringify).toHaveBeenCalledTimes(2);
      expect(decodeProtectedHeader(res.access_token)).toEqual({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' });
      expect(decodeProtectedHeader(res.id_token!)).toEqual({ alg: 'RS256', kid: 'k1', typ: 'JWT' });
    } finally {
      stringify.mockRestore();
    }
  });
});
