/**
 * ISO mdoc presentations (ISO/IEC 18013-5 DeviceResponse; OpenID4VP 1.0 Appendix B.2): the MSO's
 * signature by its `x5chain` to a trusted root, the digests of every disclosed element, the MSO's
 * validity, and the device signature over this request's session transcript. @animo-id/mdoc does
 * the mdoc work; it asks this file for X.509 and COSE, answered with @peculiar/x509 and Node.
 */
import 'reflect-metadata';
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { type MdocContext, Verifier } from '@animo-id/mdoc';
import * as x509 from '@peculiar/x509';
import { exportJWK } from 'jose';
import type { PresentationCheck } from '@svc/schemas';
import { Refusal, refuse } from '../refusals.js';
import { VERIFIED_HUMAN_DOCTYPE } from '@svc/schemas';
import { mdocSignatureDigest } from '../../openid4vci/credentials/formats/mdoc.js';
import { certificateIssuerNamed, leafNames, type TrustAnchors, trustedChain } from './trust.js';
import { checkRequestedClaims } from './claim-paths.js';
import type { FormatVerifier } from './presented.js';

const HASHES: Record<string, string> = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };

const crypto: MdocContext['crypto'] = {
  random: (length) => new Uint8Array(randomBytes(length)),
  digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
  calculateEphemeralMacKeyJwk: () => {
    throw new Error('OpenID4VP answers are device-signed, never MACed');
  },
};

const certificate = (bytes: Uint8Array) => new x509.X509Certificate(Buffer.from(bytes));

/** X.509 and COSE for the library; the chain check is trust.ts's, and the refusal it gives is kept. */
function contextFor(anchors: TrustAnchors, now: Date, seen: { refusal?: Refusal; underOwnCa?: boolean }): MdocContext {
  const unused = () => {
    throw new Error('A verifier never signs');
  };
  return {
    crypto,
    cose: {
      sign1: {
        sign: unused,
        verify: ({ sign1, jwk }) => {
          const { data, alg, signature } = sign1.getRawVerificationData();
          const hash = HASHES[alg];
          return (
            hash !== undefined &&
            verify(hash, Buffer.from(data), { key: createPublicKey({ key: jwk as never, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, signature)
          );
        },
      },
      mac0: { sign: unused, verify: () => false },
    },
    x509: {
      // None found is undefined, not [], so that the library's "C must be present" check can fail.
      getIssuerNameField: ({ certificate: c, field }) => {
        const values = certificate(c).issuerName.getField(field);
        return (values.length > 0 ? values : undefined) as string[];
      },
      getPublicKey: async ({ certificate: c }) =>
        (await exportJWK(createPublicKey({ key: Buffer.from(certificate(c).publicKey.rawData), format: 'der', type: 'spki' }))) as never,
      validateCertificateChain: async ({ x5chain }) => {
        try {
          seen.underOwnCa = (await trustedChain(x5chain, anchors, now, 'mdoc')).underOwnCa;
        } catch (err) {
          if (err instanceof Refusal) seen.refusal = err;
          throw err;
        }
      },
      getCertificateData: async ({ certificate: c }) => {
        const cert = certificate(c);
        return {
          issuerName: cert.issuer,
          subjectName: cert.subject,
          serialNumber: cert.serialNumber,
          thumbprint: Buffer.from(await cert.getThumbprint('SHA-256')).toString('hex'),
          notBefore: cert.notBefore,
          notAfter: cert.notAfter,
          pem: cert.toString('pem'),
        };
      },
    },
  };
}

/** The library's check, as the check of PRESENTATION_CHECKS it belongs to. */
function checkOf(category: string | undefined, check: string): PresentationCheck {
  if (category === 'DEVICE_AUTH') return 'device_signature';
  if (category === 'DATA_INTEGRITY') return 'digests';
  if (category === 'DOCUMENT_FORMAT') return 'vp_token';
  if (/certificate must be valid/i.test(check)) return 'issuer_trust';
  if (/valid at the time|signed date/i.test(check)) return 'validity';
  return 'issuer_signature';
}

export const verifyMdoc: FormatVerifier = async (presentation, context) => {
  if (typeof presentation !== 'string' || !/^[A-Za-z0-9_-]+$/.test(presentation))
    return refuse('vp_token', 'An mdoc presentation is the base64url of a DeviceResponse');
  const seen: { refusal?: Refusal; underOwnCa?: boolean } = {};
  const failures: { check: PresentationCheck; message: string }[] = [];
  let response: Awaited<ReturnType<Verifier['verifyDeviceResponse']>>;
  try {
    response = await new Verifier().verifyDeviceResponse(
      {
        encodedDeviceResponse: new Uint8Array(Buffer.from(presentation, 'base64url')),
        encodedSessionTranscript: context.sessionTranscript,
        trustedCertificates: context.anchors.roots.map((r) => new Uint8Array(r.rawData)),
        now: context.now,
        onCheck: (c) => {
          if (c.status === 'FAILED') failures.push({ check: checkOf(c.category, c.check), message: c.reason ? `${c.check}: ${c.reason}` : c.check });
        },
      },
      contextFor(context.anchors, context.now, seen),
    );
  } catch (err) {
    return refuse('vp_token', `The DeviceResponse cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const first = failures[0];
  if (first) throw first.check === 'issuer_trust' && seen.refusal ? seen.refusal : new Refusal(first.check, first.message);
  if (response.documents.length !== 1) refuse('vp_token', 'The DeviceResponse must hold exactly one document');
  const document = response.documents[0]!;
  const doctype = context.query.meta?.doctype_value;
  if (doctype && document.docType !== doctype) refuse('type', `The mdoc is a ${document.docType}, not a ${doctype}`);
  const claims: Record<string, Record<string, unknown>> = {};
  const asked = context.query.claims?.map((c) => JSON.stringify(c.path.slice(0, 2)));
  for (const [namespace, items] of document.issuerSigned.nameSpaces) {
    const elements: Record<string, unknown> = {};
    claims[namespace] = elements;
    for (const item of items) {
      if (asked && !asked.includes(JSON.stringify([namespace, item.elementIdentifier])))
        refuse('unrequested_disclosure', `The wallet disclosed ${namespace}/${item.elementIdentifier}, which the request did not ask for`);
      elements[item.elementIdentifier] = item.elementValue instanceof Date ? item.elementValue.toISOString() : item.elementValue;
    }
  }
  checkRequestedClaims(context.query, claims);
  const issuerAuth = document.issuerSigned.issuerAuth;
  const signer = certificate(issuerAuth.certificate);
  if (!certificateIssuerNamed(context.anchors, (issuer) => leafNames(signer, issuer)))
    refuse('issuer_trust', 'This request trusts other issuers than the one that signed this mdoc');
  // This issuer's doctype and URL are vouched for by its own CA only; what its CA signed has a record here.
  if ((document.docType === VERIFIED_HUMAN_DOCTYPE || leafNames(signer, context.issuerUrl)) && !seen.underOwnCa)
    refuse('issuer_trust', 'Only this deployment’s own CA vouches for its issuer URL and its doctypes');
  const vouchedBy = seen.underOwnCa ? await context.ownVoucher({ signatureDigest: mdocSignatureDigest(issuerAuth.signature) }) : undefined;
  return {
    format: 'mso_mdoc',
    issuer: signer.subject,
    type: document.docType,
    claims,
    expiresAt: issuerAuth.decodedPayload.validityInfo.validUntil,
    ...(vouchedBy ? { vouchedBy } : {}),
  };
};
