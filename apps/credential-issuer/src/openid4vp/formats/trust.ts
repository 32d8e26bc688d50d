import 'reflect-metadata';
import { createHash } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { pemCertificates } from '../../keys/verifier-key.js';
import { refuse } from '../refusals.js';

/** ISO/IEC 18013-5 Annex B: a document signer (what signs mdocs) and a reader (what signs requests, never credentials). */
const DOCUMENT_SIGNER = '1.0.18013.5.1.2';
const READER = '1.0.18013.5.1.6';

/**
 * The roots a presentation's issuer certificate may chain to: this issuer's CA, the operator's
 * TRUSTED_ISSUER_CERTS, and those a request names; a request that names roots or issuer URLs
 * narrows the set to them (its own roots, and the deployment's roots whose chains name those URLs).
 */
export interface TrustAnchors {
  roots: x509.X509Certificate[];
  /** This deployment's issuer CA: the only root that vouches for this issuer's URL and its own credential types. */
  own: x509.X509Certificate;
  /** Issuer URLs (SD-JWT VC `iss`) the request limits trust to; empty: any issuer under the roots. */
  issuers: string[];
  /** Issuer DIDs (W3C credentials) the request names: trusted beside this issuer's and VERIFY_TRUSTED_ISSUERS, and then the only ones. */
  dids: string[];
  /** The request named whom it trusts: a credential is accepted only from what it named. */
  narrowed: boolean;
  /** The request named roots of its own (they replace the deployment's). */
  ownRoots: boolean;
}

/**
 * Certificates read, and links (a certificate signed by another's key) that held, by their bytes:
 * the same few issuer chains come with every presentation, and parsing and checking them again
 * would cost more than the rest of a verification. Bounded; a link is a fact of its two certificates'
 * bytes, so a kept one never needs checking again (validity and constraints are checked every time).
 */
const CACHED = 512;
const parsed = new Map<string, x509.X509Certificate>();
const links = new Set<string>();
const remember = <K>(cache: Map<K, unknown> | Set<K>, key: K) => {
  if (cache.size >= CACHED) cache.delete(cache.keys().next().value as K);
  return key;
};

function certificateOf(der: string | Uint8Array): x509.X509Certificate {
  const key = typeof der === 'string' ? der : Buffer.from(der).toString('base64');
  const known = parsed.get(key);
  if (known) return known;
  const certificate = new x509.X509Certificate(Buffer.from(key, 'base64'));
  parsed.set(remember(parsed, key), certificate);
  return certificate;
}

async function signedBy(child: x509.X509Certificate, parent: x509.X509Certificate): Promise<boolean> {
  const key = `${createHash('sha256').update(Buffer.from(child.rawData)).digest('base64')}<${createHash('sha256').update(Buffer.from(parent.rawData)).digest('base64')}`;
  if (links.has(key)) return true;
  const holds = await child.verify({ publicKey: parent, signatureOnly: true });
  if (holds) links.add(remember(links, key));
  return holds;
}

export function anchorsOf(ownCaPem: string, deploymentRootsPem: string | undefined, requested: readonly string[] | undefined): TrustAnchors {
  const parse = (pem: string) => pemCertificates(pem).map(certificateOf);
  const own = parse(ownCaPem)[0]!;
  const deployment = [own, ...(deploymentRootsPem ? parse(deploymentRootsPem) : [])];
  if (!requested?.length) return { roots: deployment, own, issuers: [], dids: [], narrowed: false, ownRoots: false };
  const roots = requested.filter((t) => t.includes('-----BEGIN CERTIFICATE-----')).flatMap(parse);
  const issuers = requested.filter((t) => /^https?:\/\//.test(t));
  const dids = requested.filter((t) => t.startsWith('did:'));
  // Issuer URLs alone keep the deployment's roots: the URL narrows, the roots still vouch.
  return { roots: roots.length > 0 ? roots : deployment, own, issuers, dids, narrowed: true, ownRoots: roots.length > 0 };
}

/** A chain that held: its signer's certificate, and whether it ends at this deployment's own CA. */
export interface TrustedChain {
  leaf: x509.X509Certificate;
  underOwnCa: boolean;
}

const basicConstraints = (c: x509.X509Certificate) => c.getExtension(x509.BasicConstraintsExtension);
const keyUsage = (c: x509.X509Certificate) => c.getExtension(x509.KeyUsagesExtension)?.usages;
const extendedKeyUsages = (c: x509.X509Certificate) => c.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String);
const sameCertificate = (a: x509.X509Certificate, b: x509.X509Certificate) => Buffer.from(a.rawData).equals(Buffer.from(b.rawData));

/** A CA that may sign a certificate with `below` CA certificates under it (RFC 5280 §4.2.1.3, §4.2.1.9). */
function mayCertify(ca: x509.X509Certificate, below: number): boolean {
  const constraints = basicConstraints(ca);
  if (!constraints?.ca) return false;
  if (constraints.pathLength !== undefined && below > constraints.pathLength) return false;
  const usages = keyUsage(ca);
  return usages === undefined || (usages & x509.KeyUsageFlags.keyCertSign) !== 0;
}

/**
 * The signer's certificate of an `x5c` (or mdoc `x5chain`) chain when every link holds (RFC 5280
 * path validation, as far as credentials need it): each certificate valid now and signed by the
 * next, which is a CA allowed to certify (basicConstraints cA, its path length, keyCertSign); the
 * last signed by a trusted root (never a root itself); the signer an end entity that signs
 * (digitalSignature), never a reader (a verifier's request-signing certificate), and for an mdoc a
 * document signer. Refused otherwise.
 */
export async function trustedChain(
  chain: readonly string[] | readonly Uint8Array[],
  anchors: TrustAnchors,
  now: Date,
  signs: 'credential' | 'mdoc',
): Promise<TrustedChain> {
  if (chain.length === 0 || chain.length > 5) return refuse('issuer_trust', 'The issuer’s certificate chain must hold 1 to 5 certificates');
  let certificates: x509.X509Certificate[];
  try {
    certificates = chain.map(certificateOf);
  } catch {
    return refuse('issuer_trust', 'The issuer’s certificate chain holds a certificate that cannot be read');
  }
  for (const certificate of certificates)
    if (certificate.notBefore > now || certificate.notAfter < now)
      return refuse(
        'issuer_trust',
        `A certificate of the issuer’s chain is not valid now (${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()})`,
      );
  const leaf = certificates[0]!;
  if (basicConstraints(leaf)?.ca) return refuse('issuer_trust', 'The signer’s certificate is a CA’s; credentials are signed by end-entity certificates');
  const leafUsage = keyUsage(leaf);
  if (leafUsage !== undefined && (leafUsage & x509.KeyUsageFlags.digitalSignature) === 0)
    return refuse('issuer_trust', 'The signer’s certificate may not sign (no digitalSignature key usage)');
  const purposes = extendedKeyUsages(leaf);
  if (purposes?.includes(READER) && !purposes.includes(DOCUMENT_SIGNER))
    return refuse('issuer_trust', 'The signer’s certificate is a reader’s (a verifier’s), not an issuer’s');
  if (signs === 'mdoc' && !purposes?.includes(DOCUMENT_SIGNER))
    return refuse('issuer_trust', 'The mdoc’s signer certificate is not a document signer’s (extended key usage 1.0.18013.5.1.2)');
  for (let i = 0; i + 1 < certificates.length; i++) {
    const [child, parent] = [certificates[i]!, certificates[i + 1]!];
    if (!mayCertify(parent, i) || child.issuer !== parent.subject || !(await signedBy(child, parent)))
      return refuse('issuer_trust', 'A certificate of the issuer’s chain is not certified by the next one (its CA constraints, name or signature)');
  }
  const last = certificates.at(-1)!;
  for (const root of anchors.roots) {
    if (root.notBefore > now || root.notAfter < now || sameCertificate(root, leaf)) continue;
    const isRoot = sameCertificate(last, root);
    const below = isRoot ? certificates.length - 2 : certificates.length - 1;
    if (!mayCertify(root, below)) continue;
    if (isRoot || (last.issuer === root.subject && (await last.verify({ publicKey: root, signatureOnly: true }))))
      return { leaf, underOwnCa: sameCertificate(root, anchors.own) };
  }
  return refuse('issuer_trust', `The issuer’s certificate chain (${last.issuer.slice(0, 200)}) leads to no root this request trusts`);
}

/** Whether the leaf names `issuer` (an SD-JWT VC `iss`) as a SAN URI, or its host as a SAN DNS name. */
export function leafNames(leaf: x509.X509Certificate, issuer: string): boolean {
  const names = leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  const host = URL.canParse(issuer) ? new URL(issuer).hostname : undefined;
  return names.some((n) => (n.type === 'url' && n.value === issuer) || (n.type === 'dns' && host !== undefined && n.value === host));
}

/** Whether a certificate-signed credential (SD-JWT VC, mdoc) of `named` may be accepted under a narrowed request. */
export function certificateIssuerNamed(anchors: TrustAnchors, named: (issuerUrl: string) => boolean): boolean {
  if (!anchors.narrowed) return true;
  if (anchors.issuers.length > 0) return anchors.issuers.some(named);
  // Roots of its own are what the request trusts; DIDs alone name no certificate issuer.
  return anchors.ownRoots;
}
