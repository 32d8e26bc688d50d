import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SignJWT, decodeJwt, importJWK } from 'jose';
import request from 'supertest';
import { arrange, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();

const tokensFor = async (a: Awaited<ReturnType<typeof arrange>>) => ({ token: await issueTokens(suite.idp.app, a) });

describe('access tokens', () => {
  it('refuses alg none, HS256 keyed with the public key, a tampered payload and another issuer', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const claims = decodeJwt(token.access_token);
    const [header, payload, signature] = token.access_token.split('.');
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'at+jwt' })}.${payload}.`;
    const tampered = `${header}.${b64({ ...claims, scope: 'openid kyc:read financial:net_worth' })}.${signature}`;
    const jwks = (await request(suite.idp.app).get('/.well-known/jwks.json')).body.keys[0];
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: jwks.kid })
      .sign(new TextEncoder().encode(JSON.stringify(jwks)));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreign = await new SignJWT({ ...claims, iss: 'https://evil.example' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwks.kid })
      .sign(await importJWK(privateKey.export({ format: 'jwk' }) as never, 'RS256'));
    for (const bad of [none, tampered, hs, foreign, 'garbage']) {
      const res = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${bad}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_token');
    }
    expect((await request(suite.idp.app).get('/v2/userinfo')).status).toBe(401);
  });
});
