/**
 * Encrypted credential requests and responses (OpenID4VCI 1.0 §8.2, §8.3, §10; HAIP 1.0: ECDH-ES
 * on P-256 with A128GCM). A wallet asks for an encrypted response with
 * `credential_response_encryption` {jwk, enc} inside a request it encrypted (a JWE,
 * `application/jwt`, to the issuer's request encryption key): §8.2 requires it, or whoever can
 * change the request in transit could put its own key there. The answer is then a JWE to the
 * wallet's key. Errors are never encrypted. The wallet's key is checked before anything is issued.
 */
import express, { type RequestHandler } from 'express';
import { CompactEncrypt, compactDecrypt, importJWK, type JWK } from 'jose';
import { HttpError } from '@svc/http';
import type { RequestEncryptionKey } from '../../keys/request-encryption-key.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request came as a JWE to the issuer's key (left by decryptedRequest). */
    encryptedRequest?: boolean;
  }
}

export const ENCRYPTION_ALGORITHMS = ['ECDH-ES'] as const;
export const CONTENT_ENCRYPTIONS = ['A128GCM', 'A256GCM'] as const;

/** OpenID4VCI 1.0 §8.3.1.2. */
const invalidEncryptionParameters = (description: string) => new HttpError(400, 'invalid_encryption_parameters', description);

/** What the metadata says of both directions: either may be used, neither is required. */
export const encryptionMetadata = async (key: RequestEncryptionKey) => ({
  credential_request_encryption: { jwks: { keys: [await key.publicJwk()] }, enc_values_supported: [...CONTENT_ENCRYPTIONS], encryption_required: false },
  credential_response_encryption: {
    alg_values_supported: [...ENCRYPTION_ALGORITHMS],
    enc_values_supported: [...CONTENT_ENCRYPTIONS],
    encryption_required: false,
  },
});

export interface ResponseEncryption {
  jwk: JWK;
  enc: (typeof CONTENT_ENCRYPTIONS)[number];
  alg?: string | undefined;
}

/**
 * The wallet's key, imported: a public P-256 key for ECDH-ES (`alg` beside it, or in the key, as
 * drafts and the final text put it), asked for in an encrypted request.
 */
export async function responseKeyOf(params: ResponseEncryption, requestWasEncrypted: boolean) {
  if (!requestWasEncrypted)
    throw invalidEncryptionParameters(
      'credential_response_encryption must come in an encrypted request: send the request as a JWE (application/jwt) to the key in credential_request_encryption',
    );
  const alg = params.alg ?? params.jwk.alg ?? 'ECDH-ES';
  if (alg !== 'ECDH-ES') throw invalidEncryptionParameters('credential_response_encryption: alg must be ECDH-ES');
  const { kty, crv, x, y } = params.jwk;
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y || 'd' in params.jwk)
    throw invalidEncryptionParameters('credential_response_encryption.jwk must be a public EC P-256 key');
  try {
    return await importJWK({ kty, crv, x, y }, 'ECDH-ES');
  } catch {
    throw invalidEncryptionParameters('credential_response_encryption.jwk is not a valid P-256 public key');
  }
}

/** The response as a JWE to the wallet's key. */
export async function encryptedResponse(body: unknown, params: ResponseEncryption, key: Awaited<ReturnType<typeof responseKeyOf>>): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: params.enc, ...(params.jwk.kid ? { kid: params.jwk.kid } : {}) })
    .encrypt(key);
}

const jwtBody = express.text({ type: 'application/jwt', limit: '64kb' });

/**
 * An encrypted request, decrypted before the handler reads it: an `application/jwt` body is a JWE
 * to the issuer's request encryption key, whose plaintext is the JSON request. Others pass as sent.
 */
export function decryptedRequest(key: RequestEncryptionKey): RequestHandler {
  return (req, res, next) => {
    if (!req.is('application/jwt')) return next();
    jwtBody(req, res, async (err?: unknown) => {
      if (err) return next(err);
      try {
        const { plaintext } = await compactDecrypt(String(req.body ?? ''), await key.privateKey(), {
          keyManagementAlgorithms: [...ENCRYPTION_ALGORITHMS],
          contentEncryptionAlgorithms: [...CONTENT_ENCRYPTIONS],
          // A compressed request is refused before anything is inflated.
          maxDecompressedLength: 0,
        });
        req.body = JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
        res.locals.encryptedRequest = true;
        next();
      } catch {
        next(
          invalidEncryptionParameters(
            'The request is not a JWE to this issuer’s request encryption key (ECDH-ES, A128GCM or A256GCM) holding a JSON credential request',
          ),
        );
      }
    });
  };
}
