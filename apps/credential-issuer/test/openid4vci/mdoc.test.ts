// ISO mdoc (mso_mdoc) through OpenID4VCI: a wallet built from @openid4vc/openid4vci receives the
// age credential as the EU age verification attestation and the verified-human credential; then,
// as a holder would, it answers a reader with @auth0/mdl (a DeviceResponse signed with the device
// key its proof named), and @auth0/mdl's verifier, trusting only the issuer CA as served, checks
// the issuer's signature and chain, every digest, the validity and the device signature.
import { describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { DataItem, DeviceResponse, parse, Verifier } from '@auth0/mdl';
import { cborDecode, cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import { exportJWK } from 'jose';
import request from 'supertest';
import { makeAuthority } from '../../src/keys/certificates.js';
import { SUBJECT } from '../helpers.js';
import { apiToken, credentialRequest, issuer, nonce, now, offered, proof, tokenFor, url, useRunningIssuer } from './running-issuer.js';
import { type Holder, newHolder, receive } from './wallet.js';

useRunningIssuer();

const AGE_MDOC = { credential_configuration_id: 'age_over_mdoc', claims: { age_over_18: true, age_over_21: false }, subject_address: SUBJECT };
const HUMAN_MDOC = { credential_configuration_id: 'verified_human_mdoc', claims: { unique_human: true, palm_verified: true }, subject_address: SUBJECT };

const caPem = async () => (await request(issuer.app).get('/certificates/issuer-ca.pem')).text;

/** What a reader and the wallet agree on for one presentation (a transcript of the reader's own making). */
const transcript = () => Buffer.from(cborEncode(DataItem.fromData([null, null, ['reader-nonce', 'https://reader.example', 'handover']])));

/** The holder answers a reader with the claims `wanted` of its mdoc, signed with its device key. */
async function presentMdoc(holder: Holder, credential: string, doctype: string, wanted: string[]) {
  const issuerSigned = cborDecode(Buffer.from(credential, 'base64url'));
  const mdoc = parse(Buffer.from(cborEncode({ version: '1.0', documents: [{ docType: doctype, issuerSigned }], status: 0 })));
  const definition = {
    id: 'request',
    input_descriptors: [
      {
        id: doctype,
        format: { mso_mdoc: { alg: ['ES256'] } },
        constraints: { limit_disclosure: 'required', fields: wanted.map((name) => ({ path: [`$['${doctype}']['${name}']`], intent_to_retain: false })) },
      },
    ],
  };
  const response = await DeviceResponse.from(mdoc)
    .usingPresentationDefinition(definition)
    .usingSessionTranscriptBytes(transcript())
    .authenticateWithSignature(await exportJWK(holder.privateKey), 'ES256')
    .sign();
  return response.encode();
}

const readerTrusting = (ca: string) => new Verifier([ca]);

describe('a wallet receives an mdoc', () => {
  it('the EU age verification attestation: a reader trusting the issuer CA checks the issuer signature, the digests, the validity and the device key', async () => {
    const holder = await newHolder('ES256');
    const o = await offered(AGE_MDOC);
    const { credential, issuerMetadata } = await receive(holder, o.offer_link, o.tx_code);
    expect(issuerMetadata.credentialIssuer.credential_configurations_supported.age_over_mdoc).toMatchObject({
      format: 'mso_mdoc',
      doctype: 'eu.europa.ec.av.1',
      cryptographic_binding_methods_supported: ['cose_key'],
      credential_signing_alg_values_supported: [-7],
      proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
      credential_metadata: { claims: expect.arrayContaining([expect.objectContaining({ path: ['eu.europa.ec.av.1', 'age_over_18'] })]) },
    });
    expect(typeof credential).toBe('string');

    const answer = await presentMdoc(holder, credential, 'eu.europa.ec.av.1', ['age_over_18']);
    const verified = await readerTrusting(await caPem()).verify(answer, { encodedSessionTranscript: transcript() });
    const document = verified.documents[0]!;
    expect(document.docType).toBe('eu.europa.ec.av.1');
    // Only what the holder chose to show.
    expect(document.getIssuerNameSpace('eu.europa.ec.av.1')).toEqual({ age_over_18: true });
    const { validityInfo } = document.issuerSigned.issuerAuth.decodedPayload;
    // MDOC_VALIDITY_SECONDS (30 days): no status a reader can check, so a short life; times to the hour.
    expect(validityInfo.validUntil.getTime() - validityInfo.validFrom.getTime()).toBe(30 * 24 * 3600 * 1000);
    expect(validityInfo.validFrom.getTime() % 3_600_000).toBe(0);
    // The signer's certificate is the issuer's leaf: it names the issuer URL and the country.
    const signerCertificate = new X509Certificate(Buffer.from(document.issuerSigned.issuerAuth.certificate.rawData));
    expect(signerCertificate.subjectAltName).toBe(`URI:${url}`);
    expect(document.issuerSigned.issuerAuth.countryName).toBe('ZZ');

    // A reader that trusts another CA refuses it.
    const elsewhere = await makeAuthority({ name: 'Elsewhere', country: 'DE', now: new Date() });
    await expect(readerTrusting(elsewhere.certificatePem).verify(answer, { encodedSessionTranscript: transcript() })).rejects.toThrow();
    // So does one whose transcript is not the one the device signed (a replayed answer).
    const other = Buffer.from(cborEncode(DataItem.fromData([null, null, ['another-nonce', 'https://reader.example', 'handover']])));
    await expect(readerTrusting(await caPem()).verify(answer, { encodedSessionTranscript: other })).rejects.toThrow(/[Dd]evice signature/);

    // Recorded and revocable like every credential the issuer signs.
    const listed = await request(issuer.app).get('/credentials').query({ subject_address: SUBJECT }).set('X-API-Token', apiToken);
    expect(listed.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ format: 'mso_mdoc', claim_names: ['age_over_18', 'age_over_21'] })]));
  });

  it('the verified-human credential under its own doctype', async () => {
    const holder = await newHolder('ES256');
    const o = await offered(HUMAN_MDOC);
    const { credential } = await receive(holder, o.offer_link, o.tx_code);
    const answer = await presentMdoc(holder, credential, 'org.svc.verified_human.1', ['unique_human', 'palm_verified']);
    const verified = await readerTrusting(await caPem()).verify(answer, { encodedSessionTranscript: transcript() });
    expect(verified.documents[0]!.getIssuerNameSpace('org.svc.verified_human.1')).toEqual({ unique_human: true, palm_verified: true });
  });

  it('binds only a P-256 key: an EdDSA proof is refused, naming ES256, and the offer stays usable', async () => {
    const o = await offered(AGE_MDOC);
    const token = (await tokenFor(o)).body.access_token as string;
    const ed = await newHolder('EdDSA');
    const refused = await credentialRequest(token, {
      credential_configuration_id: 'age_over_mdoc',
      proofs: { jwt: [await proof(ed, { aud: url, iat: now(), nonce: await nonce() })] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_proof', error_description: expect.stringContaining('ES256') });
    const p256 = await newHolder('ES256');
    const issued = await credentialRequest(token, {
      credential_configuration_id: 'age_over_mdoc',
      proofs: { jwt: [await proof(p256, { aud: url, iat: now(), nonce: await nonce() })] },
    });
    expect(issued.status).toBe(200);
  });
});
