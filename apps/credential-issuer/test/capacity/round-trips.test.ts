// The capacity model's inputs, measured: how many PostgreSQL statements and Redis commands each hot
// path of the credential issuer costs per request once its caches are warm. infra/README.md
// ("Capacity model") prints the same figures; this test measures them and holds the page to them,
// so the page cannot drift from the code.
import { describe, it } from '@jest/globals';
import { testRedisUrl, uniqueNamespace } from '@svc/testkit';
import { expectDocumented, type HotPath, hotPath, measureHotPaths } from '@svc/testkit/capacity';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { issueAsIssuer, SUBJECT } from '../helpers.js';
import { newHolder } from '../openid4vci/wallet.js';
import { AGE, apiToken, credentialRequest, issuer, nonce, now, offer, offered, proof, tokenFor, url, useRunningIssuer } from '../openid4vci/running-issuer.js';

// The wallet endpoints' limits per address as deployed, in keys of this run alone: the rounds below
// stay within them. No read replica, even on a run that has one: the page's figures are for one PostgreSQL.
useRunningIssuer({ REDIS_URL: testRedisUrl(), REDIS_KEY_PREFIX: uniqueNamespace('ci-test'), DATABASE_READ_URL: '' });

const V2 = 'https://www.w3.org/ns/credentials/v2';
/** The W3C VC API's request: a credential about a did:ethr, with a Bitstring Status List entry by default. */
const w3cCredential = (did: string) => ({
  '@context': [V2, { level: 'https://example.org/vocab#level' }],
  type: ['VerifiableCredential'],
  issuer: did,
  credentialSubject: { id: `did:ethr:${SUBJECT}`, level: 'gold' },
});

/** What a wallet holds when it asks for its credential: an access token, and a proof of its key over a fresh nonce. */
async function readyWallet() {
  const token = await tokenFor(await offered());
  const holder = await newHolder();
  return { accessToken: token.body.access_token as string, jwt: await proof(holder, { aud: url, iat: now(), nonce: await nonce() }) };
}

describe('statements and Redis commands per request (infra/README.md, "Capacity model")', () => {
  it('are what the capacity model says, for every hot path', async () => {
    const { app } = issuer;
    const issued = await issueAsIssuer(issuer, apiToken, w3cCredential);
    const bitstring = [issued.body.verifiableCredential.credentialStatus].flat().find((s: { type: string }) => s.type === 'BitstringStatusListEntry');
    const wallet = await readyWallet();
    const sdJwt = await credentialRequest(wallet.accessToken, { proofs: { jwt: [wallet.jwt] } });
    const { status } = decodeJwt(sdJwt.body.credentials[0].credential.split('~')[0]) as { status: { status_list: { uri: string } } };
    const paths: HotPath[] = [
      { path: 'POST /credentials/issue', send: () => issueAsIssuer(issuer, apiToken, w3cCredential) },
      { path: 'POST /credential-offers', send: () => offer(AGE) },
      hotPath('GET /credential-offers/{handle}', offered, (o) => request(app).get(new URL(o.credential_offer_uri).pathname)),
      hotPath('POST /token', offered, (o) => tokenFor(o)),
      { path: 'POST /nonce', send: () => request(app).post('/nonce') },
      hotPath('POST /credential', readyWallet, (w) => credentialRequest(w.accessToken, { proofs: { jwt: [w.jwt] } })),
      { path: 'GET /status-lists/{id}', send: () => request(app).get(new URL(bitstring.statusListCredential).pathname) },
      { path: 'GET /token-status-lists/{id}', send: () => request(app).get(new URL(status.status_list.uri).pathname) },
      { path: 'GET /.well-known/openid-credential-issuer', send: () => request(app).get('/.well-known/openid-credential-issuer') },
      { path: 'GET /.well-known/jwt-vc-issuer', send: () => request(app).get('/.well-known/jwt-vc-issuer') },
    ];
    expectDocumented('credential issuer', await measureHotPaths(issuer.deps.store, paths));
  });
});
