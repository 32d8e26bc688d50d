import { createHash, createPublicKey, type JsonWebKey, X509Certificate } from 'node:crypto';
import type { Request } from 'express';
import type { Config } from '../config.js';

/** A client certificate the TLS-terminating proxy verified and passed on (RFC 8705). */
export interface ClientCertificate {
  /** RFC 8705 §3.1: the certificate's SHA-256 thumbprint, `cnf["x5t#S256"]` of the tokens bound to it. */
  thumbprint: string;
  /** Its public key as DER SubjectPublicKeyInfo, compared with a client's registered keys. */
  spki: Buffer;
}

/** RFC 9440 §2: a structured-field byte sequence, `:` base64 `:`. */
const BYTE_SEQUENCE = /^:([A-Za-z0-9+/]{1,16384}={0,2}):$/;

/**
 * Whether the request came straight from a proxy TRUST_PROXY names: only such a peer's
 * certificate header is its verified client's. From anyone else the header is what a client wrote
 * (a public certificate, sent over plain HTTP, would otherwise authenticate its owner).
 */
const fromTrustedProxy = (req: Request): boolean => {
  const trusted = req.app.get('trust proxy fn') as ((address: string | undefined, hop: number) => boolean) | undefined;
  return trusted?.(req.socket.remoteAddress, 0) === true;
};

/**
 * The certificate in the configured header (MTLS_CLIENT_CERT_HEADER), or undefined when mutual TLS
 * is not configured, the request did not come from a trusted proxy, none was presented, or the
 * header does not hold a certificate.
 */
export function clientCertificate(config: Pick<Config, 'MTLS_CLIENT_CERT_HEADER'>, req: Request): ClientCertificate | undefined {
  if (!config.MTLS_CLIENT_CERT_HEADER || !fromTrustedProxy(req)) return undefined;
  const value = req.get(config.MTLS_CLIENT_CERT_HEADER);
  const encoded = value === undefined ? undefined : BYTE_SEQUENCE.exec(value.trim())?.[1];
  if (!encoded) return undefined;
  try {
    const der = Buffer.from(encoded, 'base64');
    const certificate = new X509Certificate(der);
    // RFC 8705 §2.2: a self-signed certificate, so its own key must have signed it. Anyone can put a
    // client's public key in a certificate; only the key's holder can sign one.
    if (!certificate.verify(certificate.publicKey)) return undefined;
    return {
      thumbprint: createHash('sha256').update(der).digest('base64url'),
      spki: certificate.publicKey.export({ type: 'spki', format: 'der' }),
    };
  } catch {
    return undefined;
  }
}

/** RFC 8705 §2.2: whether the certificate's key is one of the client's registered public keys. */
export function certifiesKeyOf(certificate: ClientCertificate, jwks: unknown): boolean {
  const keys = (jwks as { keys?: JsonWebKey[] } | null)?.keys ?? [];
  return keys.some((jwk) => {
    try {
      return createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' }).equals(certificate.spki);
    } catch {
      return false;
    }
  });
}
