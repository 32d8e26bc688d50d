/**
 * Holder key proofs (OpenID4VCI 1.0 §8.2.1, proof type `jwt`): the wallet signs the issuer's
 * fresh nonce and the issuer's identifier with the key the credential will be bound to. Nonces
 * come from the nonce endpoint, live five minutes and are taken once, on every replica (the shared
 * store deletes them atomically).
 */
import { randomBytes } from 'node:crypto';
import type { CoreDeps } from '@svc/runtime';
import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { invalidNonce, invalidProof } from '../errors.js';

export const NONCE_TTL_SECONDS = 300;
export const PROOF_TYP = 'openid4vci-proof+jwt';
/** What a holder's key may be: P-256 (ES256) or Ed25519 (EdDSA), as wallets use. */
export const PROOF_ALGORITHMS = ['ES256', 'EdDSA'] as const;
/** How old a proof may be, and how far ahead a wallet's clock may run. */
const PROOF_MAX_AGE_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 60;

const nonceKey = (nonce: string) => `c_nonce:${nonce}`;

export async function issueNonce(cache: CoreDeps['store']['cache']): Promise<string> {
  const nonce = randomBytes(32).toString('base64url');
  await cache.set(nonceKey(nonce), '1', NONCE_TTL_SECONDS);
  return nonce;
}

/** The holder's public key, once the proof's signature, type, audience, age and nonce hold. */
export async function holderKeyOf(proof: string, expected: { audience: string; cache: CoreDeps['store']['cache']; now: Date }): Promise<JWK> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalidProof('The proof is not a JWT');
  }
  if (header.typ !== PROOF_TYP) throw invalidProof(`The proof's typ must be ${PROOF_TYP}`);
  if (!PROOF_ALGORITHMS.includes(header.alg as (typeof PROOF_ALGORITHMS)[number]))
    throw invalidProof(`The proof's alg must be one of ${PROOF_ALGORITHMS.join(', ')}`);
  const jwk = header.jwk;
  if (!jwk || typeof jwk !== 'object') throw invalidProof('The proof must carry the holder’s public key as jwk in its header');
  if ('d' in jwk) throw invalidProof('The proof’s jwk must be a public key: it holds a private one');
  if (header.kid !== undefined || header.x5c !== undefined) throw invalidProof('The proof names its key by jwk alone (no kid or x5c beside it)');
  const fits = header.alg === 'ES256' ? jwk.kty === 'EC' && jwk.crv === 'P-256' : jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  if (!fits) throw invalidProof(`The proof's jwk does not fit ${header.alg}: ES256 takes an EC P-256 key, EdDSA an OKP Ed25519 key`);
  let payload: Record<string, unknown>;
  try {
    const key = await importJWK(jwk, header.alg);
    ({ payload } = await jwtVerify(proof, key, {
      algorithms: [...PROOF_ALGORITHMS],
      typ: PROOF_TYP,
      audience: expected.audience,
      maxTokenAge: PROOF_MAX_AGE_SECONDS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: expected.now,
    }));
  } catch (err) {
    const claim = (err as { claim?: string }).claim;
    if (claim === 'aud') throw invalidProof(`The proof's aud must be this credential issuer, ${expected.audience}`);
    if (claim === 'iat') throw invalidProof(`The proof's iat must be within the last ${PROOF_MAX_AGE_SECONDS} seconds`);
    throw invalidProof('The proof’s signature does not verify with its jwk');
  }
  if (typeof payload.nonce !== 'string') throw invalidNonce();
  // Taken once: a replayed proof finds its nonce gone.
  if ((await expected.cache.delete(nonceKey(payload.nonce))) !== 1) throw invalidNonce();
  return jwk;
}
