// How wallets reach the issuer beyond the plain flow: tokens bound to the wallet's key (DPoP,
// RFC 9449), through the wallet library and by hand, and calls from a wallet in a browser (CORS).
import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { decodeJwt, SignJWT } from 'jose';
import request from 'supertest';
import { AGE, issuer, nonce, now, offered, proof, tokenFor, url, useRunningIssuer } from './running-issuer.js';
import { type Holder, newHolder, receive } from './wallet.js';

useRunningIssuer();

describe('DPoP (RFC 9449): a token bound to the wallet’s key', () => {
  it('is issued for a DPoP proof at /token and used with proofs of that key, through the wallet library', async () => {
    const holder = await newHolder('ES256');
    const o = await offered();
    const { credential, accessTokenResponse } = await receive(holder, o.offer_link, o.tx_code, 'jwk', { dpop: true });
    expect(accessTokenResponse.token_type).toBe('DPoP');
    expect(decodeJwt(credential.split('~')[0]!).vct).toMatch(/age-over$/);
  });

  it('refuses the bound token as a bearer token, with another key’s proof, or with a replayed proof; and a bearer token under the DPoP scheme', async () => {
    const holder = await newHolder('ES256');
    const thief = await newHolder('ES256');
    const dpopProof = (who: Holder, claims: Record<string, unknown>) =>
      new SignJWT({ htm: 'POST', jti: crypto.randomUUID(), iat: now(), ...claims })
        .setProtectedHeader({ alg: who.alg, typ: 'dpop+jwt', jwk: who.publicJwk })
        .sign(who.privateKey);
    const o = await offered({ ...AGE, tx_code: false });
    const code = o.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    const token = await request(issuer.app)
      .post('/token')
      .set('DPoP', await dpopProof(holder, { htu: `${url}/token` }))
      .type('form')
      .send({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code });
    expect(token.body.token_type).toBe('DPoP');
    const accessToken = token.body.access_token as string;
    const ath = createHash('sha256').update(accessToken).digest('base64url');
    const ask = async (scheme: string, dpop?: string) =>
      request(issuer.app)
        .post('/credential')
        .set('Authorization', `${scheme} ${accessToken}`)
        .set(dpop ? { DPoP: dpop } : {})
        .send({ credential_configuration_id: 'age_over_sd_jwt', proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    const asBearer = await ask('Bearer');
    expect(asBearer.status).toBe(401);
    expect(asBearer.body.error).toBe('invalid_dpop_proof');
    expect(asBearer.headers['www-authenticate']).toMatch(/^DPoP /);
    expect((await ask('DPoP', await dpopProof(thief, { htu: `${url}/credential`, ath }))).body.error_description).toMatch(/another key/);
    expect((await ask('DPoP', await dpopProof(holder, { htu: `${url}/credential`, ath: 'x' }))).body.error_description).toMatch(/ath/);
    const good = await dpopProof(holder, { htu: `${url}/credential`, ath });
    expect((await ask('DPoP', good)).status).toBe(200);
    expect((await ask('DPoP', good)).body.error_description).toMatch(/already used/);

    const unbound = await offered({ ...AGE, tx_code: false });
    const bearer = (await tokenFor(unbound)).body.access_token as string;
    const underDpop = await request(issuer.app)
      .post('/credential')
      .set('Authorization', `DPoP ${bearer}`)
      .send({ credential_configuration_id: 'age_over_sd_jwt', proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    expect(underDpop.status).toBe(401);
    expect(underDpop.body.error_description).toMatch(/not DPoP-bound/);
  });

  it('refuses a /token request with a proof for another URL, and advertises the algorithms it takes', async () => {
    const holder = await newHolder('ES256');
    const o = await offered({ ...AGE, tx_code: false });
    const code = o.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    const wrong = await new SignJWT({ htm: 'POST', htu: 'https://elsewhere.example/token', jti: crypto.randomUUID(), iat: now() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: holder.publicJwk })
      .sign(holder.privateKey);
    const res = await request(issuer.app)
      .post('/token')
      .set('DPoP', wrong)
      .type('form')
      .send({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_dpop_proof');
    // The code is not spent by a refused proof: the wallet can try again.
    expect((await tokenFor(o)).status).toBe(200);
    const metadata = await request(issuer.app).get('/.well-known/oauth-authorization-server');
    expect(metadata.body.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'EdDSA']));
  });
});

describe('browser wallets', () => {
  it('lets a wallet in a browser call the wallet endpoints from any origin, without cookies (CORS preflight)', async () => {
    for (const path of ['/token', '/nonce', '/credential', '/credential-offers/x']) {
      const preflight = await request(issuer.app)
        .options(path)
        .set('Origin', 'https://wallet.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization, content-type, dpop');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-headers']).toMatch(/DPoP/);
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const nonceAnswer = await request(issuer.app).post('/nonce').set('Origin', 'https://wallet.example');
    expect(nonceAnswer.headers['access-control-allow-origin']).toBe('*');
    expect(nonceAnswer.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);
    // Integrators make offers from their servers with an API key: no browser origin is let in there.
    const offers = await request(issuer.app).options('/credential-offers').set('Origin', 'https://wallet.example').set('Access-Control-Request-Method', 'POST');
    expect(offers.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('POST /credential reading the Authorization header', () => {
  it('takes the scheme in any case (RFC 7235 §2.1), and refuses garbage after it as an unknown token', async () => {
    const holder = await newHolder('ES256');
    const bearer = (await tokenFor(await offered({ ...AGE, tx_code: false }))).body.access_token as string;
    const ask = async (authorization: string) =>
      request(issuer.app)
        .post('/credential')
        .set('Authorization', authorization)
        .send({ credential_configuration_id: 'age_over_sd_jwt', proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    const garbage = await ask(`Bearer ${bearer} ${bearer}`);
    expect(garbage.status).toBe(401);
    expect(garbage.body).toMatchObject({ error: 'invalid_token', error_description: 'The access token is unknown or expired' });
    expect((await ask(`bearer ${bearer}`)).status).toBe(200);
  });
});
