import { X509Certificate } from 'node:crypto';
import { decodeAttestationObject, isoBase64URL } from '@simplewebauthn/server/helpers';

/**
 * Whether a new passkey's attestation chains to one of the operator's roots
 * (PASSKEY_ATTESTATION_ROOTS): only then is it known to live in hardware of a kind the operator
 * trusts, and its sign-ins are `phrh`. Called after the WebAuthn library has verified the
 * attestation statement's signature with its first certificate; this checks the rest of the path
 * here rather than through the library's process-wide root list, so that each app's own roots
 * count and nothing is fetched from the network. No roots, `none` or self attestation: false.
 */
export function chainsToTrustedRoot(attestationObject: string, roots: string[], now: Date): boolean {
  if (roots.length === 0) return false;
  const statement = decodeAttestationObject(isoBase64URL.toBuffer(attestationObject)).get('attStmt');
  const x5c = statement.get('x5c');
  if (!Array.isArray(x5c) || x5c.length === 0) return false;
  try {
    const path = x5c.map((der) => new X509Certificate(Buffer.from(der)));
    const anchors = roots.map((pem) => new X509Certificate(pem));
    if (!path.every((cert) => within(cert, now))) return false;
    // Each certificate is issued and signed by the next, which must be a CA.
    for (let i = 0; i + 1 < path.length; i++) {
      if (!issuedBy(path[i]!, path[i + 1]!)) return false;
    }
    const last = path[path.length - 1]!;
    return anchors.some((root) => within(root, now) && (last.fingerprint256 === root.fingerprint256 || issuedBy(last, root)));
  } catch {
    // A certificate we cannot read is no proof of anything.
    return false;
  }
}

function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

function within(cert: X509Certificate, now: Date): boolean {
  return new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);
}
