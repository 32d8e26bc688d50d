// The credential issuer as wallets meet it, for the wallet test files: one process-local issuer
// listening on 127.0.0.1 (a real port: the wallet library fetches its metadata over HTTP), an
// organization's API token for offers, and what a wallet sends by hand. Each test file that calls
// useRunningIssuer() gets its own (jest loads this module once per file); the bindings are live.
import type { Server } from 'node:http';
import { afterAll, beforeAll, expect } from '@jest/globals';
import type { Db } from '@svc/db';
import { freePort, testDb } from '@svc/testkit';
import { SignJWT } from 'jose';
import request from 'supertest';
import { arrangeOrg, buildIssuer, SUBJECT } from '../helpers.js';
import type { Holder } from './wallet.js';

export let db: Db;
export let issuer: ReturnType<typeof buildIssuer>;
export let url: string;
export let apiToken: string;
/** The organization the API token is of: what these files count of their own, beside other files running at once on the database. */
export let organizationId: string;
let server: Server;

/** `env`: settings beside the defaults these files share (a test of wallet providers, say). */
export function useRunningIssuer(env: NodeJS.ProcessEnv = {}): void {
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    db = testDb();
    issuer = buildIssuer({ PUBLIC_URL: url, ISSUER_DISPLAY_NAME: 'Acme credentials', ...env });
    const arranged = await arrangeOrg(db);
    apiToken = arranged.token.key;
    organizationId = arranged.org.id;
    await new Promise<void>((resolve) => {
      server = issuer.app.listen(port, '127.0.0.1', () => resolve());
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await issuer?.deps.close();
    await db?.$disconnect();
  });
}

export const offer = (body: object) => request(issuer.app).post('/credential-offers').set('X-API-Token', apiToken).send(body);
export const AGE = { credential_configuration_id: 'age_over_sd_jwt', claims: { age_over_18: true, age_over_21: false }, subject_address: SUBJECT };

export async function offered(body: object = AGE) {
  const res = await offer(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; offer_link: string; credential_offer_uri: string; tx_code?: string; credential_offer: Record<string, any> };
}

/** What a wallet sends by hand: the token for an offer's code, a nonce, a proof signed by `holder`. */
export async function tokenFor(o: Awaited<ReturnType<typeof offered>>, txCode = o.tx_code) {
  const code = o.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
  return request(issuer.app)
    .post('/token')
    .type('form')
    .send({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code, ...(txCode ? { tx_code: txCode } : {}) });
}
export const nonce = async () => (await request(issuer.app).post('/nonce')).body.c_nonce as string;
export const proof = (holder: Holder, claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: holder.alg, typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk, ...header }).sign(holder.privateKey);
export const now = () => Math.floor(Date.now() / 1000);
export const credentialRequest = (accessToken: string, body: object) =>
  request(issuer.app)
    .post('/credential')
    .set('Authorization', `Bearer ${accessToken}`)
    .send({ credential_configuration_id: 'age_over_sd_jwt', ...body });
