// The library wallet against a verifier of this test's own making: a node:http server on 127.0.0.1
// serving a request object signed with a self-signed P-256 certificate (client_id x509_hash), and
// a response endpoint that decrypts the answer with jose. What the wallet sent is then checked
// with the verifier side of other libraries: @sd-jwt/sd-jwt-vc for this issuer's SD-JWT VC (key
// binding nonce and audience), @auth0/mdl for its mdoc over a session transcript the test builds
// itself, with @auth0/mdl's CBOR, from OpenID4VP 1.0 Appendix B.2.6.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataItem, Verifier } from '@auth0/mdl';
import { cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import * as x509 from '@peculiar/x509';
import { base64url, type CryptoKey, calculateJwkThumbprint, compactDecrypt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import request from 'supertest';
import { SUBJECT } from '../helpers.js';
import { AGE, issuer, offered, url, useRunningIssuer } from '../openid4vci/running-issuer.js';
import { newHolder, receive, verify } from '../openid4vci/wallet.js';
import {
  answer,
  credentialQuery,
  dcApiAnswer,
  encryptAnswer,
  postAnswer,
  presentMdoc,
  presentSdJwtVc,
  resolveDcApiRequest,
  resolveRequest,
  type WalletRequest,
} from './library-wallet.js';

useRunningIssuer();

const AGE_MDOC = { credential_configuration_id: 'age_over_mdoc', claims: { age_over_18: true, age_over_21: false }, subject_address: SUBJECT };
const DOCTYPE = 'eu.europa.ec.av.1';

/** One presentation request of the test verifier, and what came back for it. */
interface Transaction {
  id: string;
  nonce: string;
  state: string;
  clientId: string;
  requestJwt: string;
  encryptionKey: CryptoKey;
  encryptionJwk: JWK;
  responseUri: string;
  answers: Record<string, any>[];
}

let server: Server;
let verifierUrl: string;
let signingKeys: { publicKey: CryptoKey; privateKey: CryptoKey };
let certificateDer: Uint8Array;
const transactions = new Map<string, Transaction>();

const x509Hash = (der: Uint8Array) => `x509_hash:${createHash('sha256').update(der).digest('base64url')}`;

beforeAll(async () => {
  signingKeys = await generateKeyPair('ES256', { extractable: true });
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Test verifier',
    keys: signingKeys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3_600_000),
  });
  certificateDer = new Uint8Array(certificate.rawData);
  server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const path = new URL(req.url!, verifierUrl).pathname;
    if (req.method === 'GET' && path.startsWith('/request/')) {
      const tx = transactions.get(path.slice('/request/'.length));
      return tx ? reply(200, tx.requestJwt, 'application/oauth-authz-req+jwt') : reply(404, { error: 'not_found' });
    }
    if (req.method === 'POST' && path === '/response') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const jwe = new URLSearchParams(raw).get('response');
      for (const tx of transactions.values()) {
        try {
          const { plaintext } = await compactDecrypt(jwe ?? '', tx.encryptionKey);
          const payload = JSON.parse(new TextDecoder().decode(plaintext));
          if (payload.state !== tx.state) return reply(400, { error: 'invalid_request', error_description: 'state' });
          tx.answers.push(payload);
          return reply(200, {});
        } catch {}
      }
      return reply(400, { error: 'invalid_request', error_description: 'undecryptable' });
    }
    reply(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifierUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** The DCQL query of both tests: age_over_18 of this issuer's SD-JWT VC and of its mdoc. */
const dcqlQuery = () => ({
  credentials: [
    { id: 'age_sd_jwt', format: 'dc+sd-jwt', meta: { vct_values: [`${url}/credential-types/age-over`] }, claims: [{ path: ['age_over_18'] }] },
    { id: 'age_mdoc', format: 'mso_mdoc', meta: { doctype_value: DOCTYPE }, claims: [{ path: [DOCTYPE, 'age_over_18'], intent_to_retain: false }] },
  ],
});

/** A request object as the verifier signs it; `dcApiOrigin` makes it one for the Digital Credentials API. */
async function newTransaction(options: { dcApiOrigin?: string; clientId?: string } = {}): Promise<Transaction> {
  const id = randomUUID();
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const encryptionJwk = { ...(await exportJWK(publicKey)), kid: `enc-${id}`, use: 'enc', alg: 'ECDH-ES' };
  const clientId = options.clientId ?? x509Hash(certificateDer);
  const nonce = base64url.encode(crypto.getRandomValues(new Uint8Array(16)));
  const state = randomUUID();
  const responseUri = `${verifierUrl}/response`;
  const requestJwt = await new SignJWT({
    client_id: clientId,
    response_type: 'vp_token',
    ...(options.dcApiOrigin
      ? { response_mode: 'dc_api.jwt', expected_origins: [options.dcApiOrigin] }
      : { response_mode: 'direct_post.jwt', response_uri: responseUri }),
    nonce,
    state,
    dcql_query: dcqlQuery(),
    client_metadata: {
      jwks: { keys: [encryptionJwk] },
      encrypted_response_enc_values_supported: ['A128GCM'],
      vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] }, mso_mdoc: { issuerauth_alg_values: [-7] } },
    },
    aud: 'https://self-issued.me/v2',
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: [Buffer.from(certificateDer).toString('base64')] })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(signingKeys.privateKey);
  const tx = { id, nonce, state, clientId, requestJwt, encryptionKey: privateKey, encryptionJwk, responseUri, answers: [] };
  transactions.set(id, tx);
  return tx;
}

const link = (tx: Transaction) =>
  `openid4vp://?client_id=${encodeURIComponent(tx.clientId)}&request_uri=${encodeURIComponent(`${verifierUrl}/request/${tx.id}`)}`;

/** The verifier's own SessionTranscript bytes (OpenID4VP 1.0 B.2.6.1, or B.2.6.2 with an origin), with @auth0/mdl's CBOR. */
async function verifierTranscript(tx: Transaction, origin?: string) {
  const thumbprint = base64url.decode(await calculateJwkThumbprint(tx.encryptionJwk, 'sha256'));
  const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
  const handover = origin
    ? ['OpenID4VPDCAPIHandover', sha256(cborEncode([origin, tx.nonce, thumbprint]))]
    : ['OpenID4VPHandover', sha256(cborEncode([tx.clientId, tx.nonce, thumbprint, tx.responseUri]))];
  return Buffer.from(cborEncode(DataItem.fromData([null, null, handover])));
}

const caPem = async () => (await request(issuer.app).get('/certificates/issuer-ca.pem')).text;

/** The holder and what this issuer gave it: an SD-JWT VC and an mdoc, both bound to its key. */
async function holderWithCredentials() {
  const holder = await newHolder('ES256');
  const [sdJwt, mdoc] = await Promise.all(
    [AGE, AGE_MDOC].map(async (body) => {
      const o = await offered(body);
      return (await receive(holder, o.offer_link, o.tx_code)).credential;
    }),
  );
  return { privateJwk: await exportJWK(holder.privateKey), sdJwt: sdJwt!, mdoc: mdoc! };
}

async function presentBoth(held: Awaited<ReturnType<typeof holderWithCredentials>>, walletRequest: WalletRequest) {
  return {
    [credentialQuery(walletRequest, 'dc+sd-jwt').id]: [await presentSdJwtVc(held.sdJwt, held.privateJwk, walletRequest)],
    [credentialQuery(walletRequest, 'mso_mdoc').id]: [await presentMdoc(held.mdoc, held.privateJwk, walletRequest)],
  };
}

describe('a wallet of outside libraries answers an OpenID4VP 1.0 request', () => {
  it('over direct_post.jwt: an SD-JWT VC and an mdoc of this issuer, each verifiable by another library', async () => {
    const held = await holderWithCredentials();
    const tx = await newTransaction();

    const walletRequest = await resolveRequest(link(tx));
    expect(walletRequest.resolved.client).toMatchObject({ prefix: 'x509_hash', effective: tx.clientId });
    expect(walletRequest.payload).toMatchObject({ nonce: tx.nonce, state: tx.state, response_uri: tx.responseUri });
    expect(walletRequest.audience).toBe(tx.clientId);
    expect(walletRequest.encryptionJwk.kid).toBe(tx.encryptionJwk.kid);

    const vpToken = await presentBoth(held, walletRequest);
    expect(await answer(walletRequest, vpToken)).toEqual({ status: 200, body: {} });

    const [received] = tx.answers;
    expect(Object.keys(received!)).toEqual(expect.arrayContaining(['vp_token', 'state']));
    expect(received!.state).toBe(tx.state);

    // The SD-JWT VC: issuer signature, status, key binding to this nonce, the client_id as audience; one claim only.
    const sd = await verify(url, received!.vp_token.age_sd_jwt[0], tx.nonce, ['age_over_18']);
    expect(sd.payload.age_over_18).toBe(true);
    expect(sd.payload.age_over_21).toBeUndefined();
    expect(sd.kb?.header).toMatchObject({ typ: 'kb+jwt', alg: 'ES256' });
    expect(sd.kb?.payload).toMatchObject({ aud: tx.clientId, nonce: tx.nonce, sd_hash: expect.any(String) });

    // The mdoc: issuer chain to the issuer CA, digests, and the device signature over the transcript the verifier computes.
    const mdocAnswer = Buffer.from(received!.vp_token.age_mdoc[0], 'base64url');
    const verified = await new Verifier([await caPem()]).verify(mdocAnswer, { encodedSessionTranscript: await verifierTranscript(tx) });
    expect(verified.documents[0]!.docType).toBe(DOCTYPE);
    expect(verified.documents[0]!.getIssuerNameSpace(DOCTYPE)).toEqual({ age_over_18: true });
    // Bound to this request: the transcript of any other nonce fails the device signature.
    await expect(
      new Verifier([await caPem()]).verify(mdocAnswer, { encodedSessionTranscript: await verifierTranscript({ ...tx, nonce: 'another' }) }),
    ).rejects.toThrow(/[Dd]evice signature/);

    // A raw answer for negative tests: another state is refused by the verifier.
    expect((await postAnswer(walletRequest, await encryptAnswer(walletRequest, { vp_token: vpToken, state: 'other' }))).status).toBe(400);
  });

  it('over the Digital Credentials API: the answer handed to the page, bound to its origin', async () => {
    const held = await holderWithCredentials();
    const origin = 'https://shop.example';
    const tx = await newTransaction({ dcApiOrigin: origin });

    const walletRequest = await resolveDcApiRequest({ request: tx.requestJwt }, origin);
    expect(walletRequest.audience).toBe(`origin:${origin}`);
    // The library checks the page's origin against expected_origins.
    await expect(resolveDcApiRequest({ request: tx.requestJwt }, 'https://elsewhere.example')).rejects.toThrow(/expected_origins/);

    const { response } = await dcApiAnswer(walletRequest, await presentBoth(held, walletRequest));
    const { plaintext, protectedHeader } = await compactDecrypt(response, tx.encryptionKey);
    expect(protectedHeader).toMatchObject({ alg: 'ECDH-ES', enc: 'A128GCM', kid: tx.encryptionJwk.kid });
    const received = JSON.parse(new TextDecoder().decode(plaintext));
    expect(received.state).toBe(tx.state);

    const sd = await verify(url, received.vp_token.age_sd_jwt[0], tx.nonce, ['age_over_18']);
    expect(sd.kb?.payload).toMatchObject({ aud: `origin:${origin}`, nonce: tx.nonce });
    const mdocAnswer = Buffer.from(received.vp_token.age_mdoc[0], 'base64url');
    const verified = await new Verifier([await caPem()]).verify(mdocAnswer, { encodedSessionTranscript: await verifierTranscript(tx, origin) });
    expect(verified.documents[0]!.getIssuerNameSpace(DOCTYPE)).toEqual({ age_over_18: true });
  });

  it('refuses a request whose client_id is not the hash of the certificate that signed it', async () => {
    const tx = await newTransaction({ clientId: x509Hash(new Uint8Array([1, 2, 3])) });
    await expect(resolveRequest(link(tx))).rejects.toThrow(/x5c certificate/);
  });
});
