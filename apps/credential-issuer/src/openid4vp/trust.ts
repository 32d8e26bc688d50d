import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { pemCertificates } from '../keys/verifier-key.js';
import { refuse } from './refusals.js';

/**
 * The roots a presentation's issuer certificate may chain to: this issuer's CA, the operator's
 * TRUSTED_ISSUER_CERTS, and those a request names; a request that names roots or issuer URLs
 * narrows the set to them (its own roots, and the deployment's roots whose chains name those URLs).
 */
export interface TrustAnchors {
  roots: x509.X509Certificate[];
  /** Issuer URLs (SD-JWT VC `iss`) the request limits trust to; empty: any issuer under the roots. */
  issuers: string[];
  /** Issuer DIDs (W3C credentials) the request names: trusted beside this issuer's and VERIFY_TRUSTED_ISSUERS, and then the only ones. */
  dids: string[];
  /** The request named whom it trusts: a credential is accepted only from what it named. */
  narrowed: boolean;
  /** The request named roots of its own (they replace the deployment's). */
  ownRoots: boolean;
}

export function anchorsOf(deploymentRootsPem: string[], requested: readonly string[] | undefined): TrustAnchors {
  const deployment = deploymentRootsPem.flatMap(pemCertificates).map((der) => new x509.X509Certificate(der));
  if (!requested?.length) return { roots: deployment, issuers: [], dids: [], narrowed: false, ownRoots: false };
  const requestedRoots = requested.filter((t) => t.includes('-----BEGIN CERTIFICATE-----')).flatMap(pemCertificates);
  const issuers = requested.filter((t) => /^https?:\/\//.test(t));
  const dids = requested.filter((t) => t.startsWith('did:'));
  const roots = requestedRoots.map((der) => new x509.X509Certificate(der));
  // Issuer URLs alone keep the deployment's roots: the URL narrows, the roots still vouch.
  return { roots: roots.length > 0 ? roots : deployment, issuers, dids, narrowed: true, ownRoots: roots.length > 0 };
}

/**
 * The leaf of an `x5c` (or mdoc `x5chain`) chain when every link holds: each certificate signed by
 * the next, the last by a trusted root (or itself one), each valid at `now`. Refused otherwise.
 */
export async function trustedLeaf(chain: readonly string[] | readonly Uint8Array[], anchors: TrustAnchors, now: Date): Promise<x509.X509Certificate> {
  if (chain.length === 0 || chain.length > 5) return refuse('issuer_trust', 'The issuer’s certificate chain must hold 1 to 5 certificates');
  let certificates: x509.X509Certificate[];
  try {
    certificates = chain.map((c) => new x509.X509Certificate(typeof c === 'string' ? Buffer.from(c, 'base64') : Buffer.from(c)));
  } catch {
    return refuse('issuer_trust', 'The issuer’s certificate chain holds a certificate that cannot be read');
  }
  for (const certificate of certificates)
    if (certificate.notBefore > now || certificate.notAfter < now)
      return refuse(
        'issuer_trust',
        `The certificate ${certificate.subject} is not valid now (${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()})`,
      );
  for (let i = 0; i + 1 < certificates.length; i++)
    if (!(await certificates[i]!.verify({ publicKey: certificates[i + 1]!, signatureOnly: true })))
      return refuse('issuer_trust', `The certificate ${certificates[i]!.subject} is not signed by the next one in the chain`);
  const last = certificates.at(-1)!;
  for (const root of anchors.roots) {
    if (root.notAfter < now) continue;
    if (Buffer.from(last.rawData).equals(Buffer.from(root.rawData))) return certificates[0]!;
    if (last.issuer === root.subject && (await last.verify({ publicKey: root, signatureOnly: true }))) return certificates[0]!;
  }
  return refuse('issuer_trust', `The issuer’s certificate chain (${last.issuer}) leads to no root this request trusts`);
}

/** Whether the leaf names `issuer` (an SD-JWT VC `iss`) as a SAN URI, or its host as a SAN DNS name. */
export function leafNames(leaf: x509.X509Certificate, issuer: string): boolean {
  const names = leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  let host: string | undefined;
  try {
    host = new URL(issuer).hostname;
  } catch {
    host = undefined;
  }
  return names.some((n) => (n.type === 'url' && n.value === issuer) || (n.type === 'dns' && host !== undefined && n.value === host));
}

/** Whether a certificate-signed credential (SD-JWT VC, mdoc) of `named` may be accepted under a narrowed request. */
export function certificateIssuerNamed(anchors: TrustAnchors, named: (issuerUrl: string) => boolean): boolean {
  if (!anchors.narrowed) return true;
  if (anchors.issuers.length > 0) return anchors.issuers.some(named);
  // Roots of its own are what the request trusts; DIDs alone name no certificate issuer.
  return anchors.ownRoots;
}
