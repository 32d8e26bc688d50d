/**
 * ISO/IEC 18013-5 mdoc issuance (`mso_mdoc`, OpenID4VCI 1.0 Appendix A.2) with @animo-id/mdoc: the
 * claims as issuer-signed items of the doctype's namespace, each with its own random salt, the
 * wallet's key as the device key, validity in the MSO, and the MSO signed ES256 (COSE_Sign1) with
 * the issuer's certified key, its certificate in the `x5chain` header. What the wallet receives is
 * the base64url of the CBOR IssuerSigned structure (Appendix A.2.4).
 */
import { createHash, randomBytes, sign } from 'node:crypto';
import { cborEncode, Document, type MdocContext, parseIssuerSigned } from '@animo-id/mdoc';
import type { JWK } from 'jose';
import type { JwtSigningKey } from '../../../keys/issuer-keys.js';

export interface MdocInput {
  doctype: string;
  namespace: string;
  claims: Record<string, unknown>;
  /** The wallet's P-256 key, from its proof: the mdoc's device key. */
  deviceKey: JWK;
  issuedAt: Date;
  expiresAt: Date;
}

/** The library asks its caller for randomness and digests: Node's. */
const crypto: MdocContext['crypto'] = {
  random: (length) => new Uint8Array(randomBytes(length)),
  digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
  calculateEphemeralMacKeyJwk: () => {
    throw new Error('An issuer never authenticates as a device');
  },
};

/** COSE signing with the issuer's key: ECDSA P-256 over the Sig_structure, r||s as COSE writes it. Nothing here verifies. */
function coseWith(signer: JwtSigningKey): MdocContext['cose'] {
  const unused = () => {
    throw new Error('An issuer only signs');
  };
  return {
    sign1: {
      sign: ({ sign1 }) => new Uint8Array(sign('sha256', sign1.getRawSigningData().data, { key: signer.privateKey, dsaEncoding: 'ieee-p1363' })),
      verify: unused,
    },
    mac0: { sign: unused, verify: unused },
  };
}

export async function issueMdoc(input: MdocInput, signer: JwtSigningKey): Promise<string> {
  const document = await new Document(input.doctype, { crypto })
    .addIssuerNameSpace(input.namespace, input.claims)
    .useDigestAlgorithm('SHA-256')
    .addValidityInfo({ signed: input.issuedAt, validFrom: input.issuedAt, validUntil: input.expiresAt })
    .addDeviceKeyInfo({ deviceKey: { kty: input.deviceKey.kty, crv: input.deviceKey.crv, x: input.deviceKey.x, y: input.deviceKey.y } as never })
    .sign(
      { issuerPrivateKey: signer.privateJwk as never, issuerCertificate: Buffer.from(signer.x5c[0]!, 'base64'), alg: 'ES256', kid: signer.kid },
      { crypto, cose: coseWith(signer) },
    );
  return Buffer.from(cborEncode(document.prepare().get('issuerSigned'))).toString('base64url');
}

/** The SHA-256 (base64url) of an mdoc's issuer signature: unique to it, and what finds its record when it is presented. */
export const mdocSignatureDigest = (signature: Uint8Array) => createHash('sha256').update(signature).digest('base64url');

/** The digest of an issued mdoc (the base64url IssuerSigned a wallet receives). */
export const issuedMdocDigest = (credential: string, doctype: string) =>
  mdocSignatureDigest(parseIssuerSigned(Buffer.from(credential, 'base64url'), doctype).issuerSigned.issuerAuth.signature);
