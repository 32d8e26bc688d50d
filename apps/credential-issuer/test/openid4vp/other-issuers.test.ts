// Credentials of other issuers, as an EU PID provider signs them: an SD-JWT VC (vct urn:eudi:pid:1)
// made with @sd-jwt/sd-jwt-vc under a CA of its own that the deployment trusts
// (TRUSTED_ISSUER_CERTS), its Token Status List (@sd-jwt/jwt-status-list) served from the
// provider's own address. The verifier answers the presets from the PID's claims and reads the
// provider's status list through its guarded fetch.
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as x509 from '@peculiar/x509';
import { type AdminContext, createApiKey } from '@svc/admin';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { createHeaderAndPayload, StatusList } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { buildIssuer } from '../helpers.js';
import { db, issuer, organizationId, useRunningIssuer } from '../openid4vci/running-issuer.js';
import { answer, presentSdJwtVc, resolveRequest } from './library-wallet.js';

x509.cryptoProvider.set(webcrypto as never);
const ES256_ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const PID_ISSUER = 'https://pid-provider.example';

/** A CA of the provider's own, and the document signer certificate its credentials and status lists carry. */
async function providerCa(name: string) {
  const caKeys = (await webcrypto.subtle.generateKey(ES256_ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} CA, C=DE`,
    notBefore: new Date(now - 3_600_000),
    notAfter: new Date(now + 86_400_000),
    keys: caKeys,
    signingAlgorithm: ES256_ALG,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
  });
  const signerKeys = (await webcrypto.subtle.generateKey(ES256_ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} signer, C=DE`,
    issuer: ca.subject,
    notBefore: new Date(now - 3_600_000),
    notAfter: new Date(now + 86_400_000),
    signingKey: caKeys.privateKey,
    publicKey: signerKeys.publicKey,
    signingAlgorithm: ES256_ALG,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'url', value: PID_ISSUER }])],
  });
  return { caPem: ca.toString('pem'), x5c: [leaf.toString('base64')], privateJwk: await webcrypto.subtle.exportKey('jwk', signerKeys.privateKey) };
}

const provider = await providerCa('PID provider');
const stranger = await providerCa('Stranger');
useRunningIssuer({ TRUSTED_ISSUER_CERTS: provider.caPem, STATUS_LISTS_ALLOW_PRIVATE: 'true' });

/** The provider's status list: index 1 is revoked. */
let statusServer: Server;
let statusUri: string;
beforeAll(async () => {
  statusServer = createServer(async (_req, res) => {
    const list = new StatusList([0, 1, 0, 0, 0, 0, 0, 0], 1);
    const { header, payload } = createHeaderAndPayload(list, { iss: PID_ISSUER, sub: statusUri, iat: Math.floor(Date.now() / 1000) }, {
      alg: 'ES256',
      typ: 'statuslist+jwt',
      x5c: provider.x5c,
    } as never);
    const jwt = await new SignJWT(payload as never)
      .setProtectedHeader(header as never)
      .sign(await webcrypto.subtle.importKey('jwk', provider.privateJwk, ES256_ALG, false, ['sign']));
    res.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end(jwt);
  });
  await new Promise<void>((resolve) => statusServer.listen(0, '127.0.0.1', resolve));
  statusUri = `http://127.0.0.1:${(statusServer.address() as AddressInfo).port}/status/1`;
});
afterAll(() => new Promise((resolve) => statusServer?.close(resolve)));

/** A PID as the provider issues it, bound to a fresh holder key; `idx` its status entry. */
async function pid(signedBy: typeof provider, idx: number, overrides: { vct?: string } = {}) {
  const holder = await generateKeyPair('ES256', { extractable: true });
  const sdJwt = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    signer: await ES256.getSigner(signedBy.privateJwk),
    signAlg: 'ES256',
    saltGenerator: () => crypto.randomUUID(),
  });
  const credential = await sdJwt.issue(
    {
      iss: PID_ISSUER,
      vct: overrides.vct ?? 'urn:eudi:pid:1',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 86_400,
      cnf: { jwk: await exportJWK(holder.publicKey) },
      status: { status_list: { idx, uri: statusUri } },
      age_equals_or_over: { '18': true, '21': false },
      address: { country: 'DE', locality: 'Berlin' },
      family_name: 'Mustermann',
    },
    { _sd: ['age_equals_or_over', 'address', 'family_name'], age_equals_or_over: { _sd: ['18', '21'] }, address: { _sd: ['country', 'locality'] } },
    { header: { typ: 'dc+sd-jwt', x5c: signedBy.x5c } },
  );
  return { credential, privateJwk: await exportJWK(holder.privateKey) };
}

let verifierToken: string | undefined;
async function ask(body: object) {
  verifierToken ??= (await createApiKey({ db, now: () => new Date() } as AdminContext, { org: organizationId, permissions: 'presentations:verify' })).key;
  const res = await request(issuer.app).post('/presentation-requests').set('X-API-Token', verifierToken).send(body);
  expect(res.status).toBe(201);
  return { id: res.body.id as string, wallet: await resolveRequest(res.body.request_link) };
}
const resultOf = async (id: string) => (await request(issuer.app).get(`/presentation-requests/${id}`).set('X-API-Token', verifierToken!)).body;

describe('an EU PID of a trusted provider', () => {
  it('answers age_over_18 and country_of_residence from its claims, its status read from the provider', async () => {
    const held = await pid(provider, 0);
    const { id, wallet } = await ask({ presets: ['age_over_18', 'country_of_residence'], formats: ['dc+sd-jwt'] });
    const presented = await presentSdJwtVc(held.credential, held.privateJwk, wallet, { queryId: 'eu_pid_sd_jwt' });
    expect((await answer(wallet, { eu_pid_sd_jwt: [presented] })).status).toBe(200);
    const result = await resultOf(id);
    expect(result).toMatchObject({
      status: 'verified',
      presets: { age_over_18: { value: true, issuer: PID_ISSUER }, country_of_residence: { value: 'DE', issuer: PID_ISSUER } },
      claims: { eu_pid_sd_jwt: { age_equals_or_over: { '18': true }, address: { country: 'DE' } } },
    });
    // Only what was asked was disclosed.
    expect(result.claims.eu_pid_sd_jwt.family_name).toBeUndefined();
    expect(result.claims.eu_pid_sd_jwt.address.locality).toBeUndefined();

    // A nested claim beyond those asked for is refused by its place, not only by its name.
    const more = await ask({ presets: ['country_of_residence'], formats: ['dc+sd-jwt'] });
    const oversharing = await presentSdJwtVc(held.credential, held.privateJwk, more.wallet, {
      queryId: 'eu_pid_sd_jwt',
      claims: [
        ['address', 'country'],
        ['address', 'locality'],
      ],
    });
    await answer(more.wallet, { eu_pid_sd_jwt: [oversharing] });
    expect(await resultOf(more.id)).toMatchObject({
      status: 'pending',
      errors: [{ check: 'unrequested_disclosure', message: expect.stringContaining('address.locality') }],
    });
  });

  it('refuses a PID its provider revoked, one under a root the deployment does not trust, and a status list at an internal address by default', async () => {
    const revoked = await pid(provider, 1);
    const first = await ask({ presets: ['age_over_18'], formats: ['dc+sd-jwt'] });
    await answer(first.wallet, { eu_pid_sd_jwt: [await presentSdJwtVc(revoked.credential, revoked.privateJwk, first.wallet, { queryId: 'eu_pid_sd_jwt' })] });
    expect(await resultOf(first.id)).toMatchObject({ status: 'pending', errors: [{ check: 'status', message: expect.stringContaining('revoked') }] });

    // A trusted provider cannot pass for this deployment: its own credential types are vouched for by its own CA only.
    const impostor = await pid(provider, 0, { vct: `${issuer.deps.config.publicUrl}/credential-types/age-over` });
    const third = await ask({ dcql_query: { credentials: [{ id: 'age', format: 'dc+sd-jwt', claims: [{ path: ['age_equals_or_over', '18'] }] }] } });
    await answer(third.wallet, { age: [await presentSdJwtVc(impostor.credential, impostor.privateJwk, third.wallet, { queryId: 'age' })] });
    expect(await resultOf(third.id)).toMatchObject({ status: 'pending', errors: [{ check: 'issuer_trust', message: expect.stringContaining('own CA') }] });

    const untrusted = await pid(stranger, 0);
    const second = await ask({ presets: ['age_over_18'], formats: ['dc+sd-jwt'] });
    await answer(second.wallet, {
      eu_pid_sd_jwt: [await presentSdJwtVc(untrusted.credential, untrusted.privateJwk, second.wallet, { queryId: 'eu_pid_sd_jwt' })],
    });
    expect(await resultOf(second.id)).toMatchObject({ status: 'pending', errors: [{ check: 'issuer_trust' }] });

    // Without STATUS_LISTS_ALLOW_PRIVATE, the provider's list on a loopback address is never fetched.
    const guarded = buildIssuer();
    try {
      await expect(guarded.deps.statusListFetch(statusUri, {})).rejects.toThrow(/private or internal address/);
    } finally {
      await guarded.deps.close();
    }
  });
});
