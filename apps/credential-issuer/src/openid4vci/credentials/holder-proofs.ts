/**
 * Holder key proofs (OpenID4VCI 1.0 §8.2.1, proof type `jwt`): the wallet signs the issuer's
 * fresh nonce and the issuer's identifier with the key the credential will be bound to. Nonces
 * come from the nonce endpoint, live five minutes and are taken once, on every replica (the shared
 * store deletes them atomically).
 */
import { randomBytes } from 'node:crypto';
import type { CoreDeps } from '@svc/runtime';
import type { WalletFormat } from '@svc/schemas';
import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { invalidNonce, invalidProof } from '../errors.js';
import { checkProofKeyAttestation, type KeyAttestationExpectations, keysOfAttestationProof } from './key-attestations.js';

export const NONCE_TTL_SECONDS = 300;
export const PROOF_TYP = 'openid4vci-proof+jwt';
/** What a holder's key may be: P-256 (ES256) or Ed25519 (EdDSA), as wallets use. */
export const PROOF_ALGORITHMS = ['ES256', 'EdDSA'] as const;
type ProofAlgorithm = (typeof PROOF_ALGORITHMS)[number];

/** The keys a format binds to: an mdoc's device key is a P-256 COSE key, as mdoc readers and wallets expect. */
export const proofAlgorithmsFor = (format: WalletFormat): readonly ProofAlgorithm[] => (format === 'mso_mdoc' ? ['ES256'] : PROOF_ALGORITHMS);
/** How old a proof may be, and how far ahead a wallet's clock may run. */
const PROOF_MAX_AGE_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 60;

const nonceKey = (nonce: string) => `c_nonce:${nonce}`;

export async function issueNonce(cache: CoreDeps['store']['cache']): Promise<string> {
  const nonce = randomBytes(32).toString('base64url');
  await cache.set(nonceKey(nonce), '1', NONCE_TTL_SECONDS);
  return nonce;
}

/** A key's public members for its type, and nothing else a header carried (an OKP key with a stray `y`, say). */
export function publicMembers(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  return kty === 'EC' ? { kty, crv, x, y } : { kty, crv, x };
}

/** The did:jwk a holder key stands for: its public members, JSON, base64url (did:jwk's one rule). */
export const didJwkOf = (jwk: JWK) => `did:jwk:${Buffer.from(JSON.stringify(publicMembers(jwk))).toString('base64url')}`;

/** The holder as its proof names it: its key, and the DID it used for it (a did:jwk kid), if any. */
export interface Holder {
  jwk: JWK;
  did?: string;
}

/** The DID and key a did:jwk DID URL (`did:jwk:<key>` or `…#0`) names, or undefined: no other DID method is resolved (nothing is fetched). */
function didJwkHolder(kid: unknown): { jwk: JWK; did: string } | undefined {
  const match = typeof kid === 'string' ? /^(did:jwk:([A-Za-z0-9_-]{10,2000}))(?:#0)?$/.exec(kid) : null;
  if (!match) return undefined;
  try {
    const jwk = JSON.parse(Buffer.from(match[2]!, 'base64url').toString('utf8')) as unknown;
    return jwk && typeof jwk === 'object' && !Array.isArray(jwk) ? { jwk: jwk as JWK, did: match[1]! } : undefined;
  } catch {
    return undefined;
  }
}

/** What a proof must be made for: this issuer, now, with a key the credential's format binds to. */
export interface ProofExpectations extends KeyAttestationExpectations {
  audience: string;
  cache: CoreDeps['store']['cache'];
  algorithms?: readonly ProofAlgorithm[];
  /** The configuration takes attested keys only (KEY_ATTESTATIONS_REQUIRED). */
  keyAttestationRequired?: boolean;
}

/**
 * The holder's public key (its public members only, and the did:jwk it was named by), once the
 * proof's signature, type, audience, age and nonce hold; the nonce is taken. The key is in the
 * header as `jwk`, or named by a did:jwk `kid` (what wallets send for credentials bound to a DID).
 */
export async function holderKeyOf(proof: string, expected: ProofExpectations): Promise<Holder> {
  const [holder] = await holderKeysOf([proof], expected);
  return holder!;
}

/**
 * The holders of a batch's proofs, each checked as holderKeyOf checks one; the nonces they carry
 * (one, usually: a wallet signs a batch's proofs over the same c_nonce) are taken once all hold.
 */
export async function holderKeysOf(proofs: string[], expected: ProofExpectations): Promise<Holder[]> {
  const checked = [];
  for (const proof of proofs) checked.push(await checkedProof(proof, expected));
  await takeNonces(
    expected.cache,
    checked.map((c) => c.nonce),
  );
  return checked.map((c) => c.holder);
}

/**
 * The holders a key attestation used as the proof vouches for (proof type `attestation`): each
 * attested key, which must fit the credential's format; its nonce is taken.
 */
export async function holderKeysOfAttestation(attestation: string, expected: ProofExpectations): Promise<Holder[]> {
  const { keys, nonce } = await keysOfAttestationProof(attestation, expected);
  const algorithms = expected.algorithms ?? PROOF_ALGORITHMS;
  for (const jwk of keys) {
    const alg = algorithms.find((a) => fitsAlgorithm(a, jwk));
    if (!alg) throw invalidProof(`Every attested key must be one of ${algorithms.join(', ')} for this credential`);
    // A real key of its type, not members that merely name one.
    await importJWK(publicMembers(jwk), alg).catch(() => {
      throw invalidProof('An attested key is not a valid public key');
    });
  }
  await takeNonces(expected.cache, [nonce]);
  return keys.map((jwk) => ({ jwk: publicMembers(jwk) }));
}

/** Taken once, all of them: a replayed proof finds its nonce gone (and a request refused on a nonce has spent the rest). */
async function takeNonces(cache: CoreDeps['store']['cache'], nonces: string[]): Promise<void> {
  for (const nonce of new Set(nonces)) if ((await cache.delete(nonceKey(nonce))) !== 1) throw invalidNonce();
}

const fitsAlgorithm = (alg: string, jwk: JWK) => (alg === 'ES256' ? jwk.kty === 'EC' && jwk.crv === 'P-256' : jwk.kty === 'OKP' && jwk.crv === 'Ed25519');

async function checkedProof(proof: string, expected: ProofExpectations): Promise<{ holder: Holder; nonce: string }> {
  const algorithms = expected.algorithms ?? PROOF_ALGORITHMS;
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalidProof('The proof is not a JWT');
  }
  if (header.typ !== PROOF_TYP) throw invalidProof(`The proof's typ must be ${PROOF_TYP}`);
  if (!algorithms.includes(header.alg as ProofAlgorithm)) throw invalidProof(`The proof's alg must be one of ${algorithms.join(', ')} for this credential`);
  if (header.x5c !== undefined || (header.jwk !== undefined && header.kid !== undefined))
    throw invalidProof('The proof names its key once: jwk, or a did:jwk kid (no x5c)');
  const named = header.jwk === undefined ? didJwkHolder(header.kid) : undefined;
  const jwk = header.jwk ?? named?.jwk;
  if (!jwk || typeof jwk !== 'object') throw invalidProof('The proof must carry the holder’s public key: jwk in its header, or a did:jwk kid');
  if ('d' in jwk) throw invalidProof('The proof’s key must be a public key: it holds a private one');
  if (!fitsAlgorithm(header.alg!, jwk)) throw invalidProof(`The proof's jwk does not fit ${header.alg}: ES256 takes an EC P-256 key, EdDSA an OKP Ed25519 key`);
  let payload: Record<string, unknown>;
  try {
    const key = await importJWK(jwk, header.alg);
    ({ payload } = await jwtVerify(proof, key, {
      algorithms: [...algorithms],
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
  if (header.key_attestation !== undefined) await checkProofKeyAttestation(header.key_attestation, jwk, expected);
  else if (expected.keyAttestationRequired)
    throw invalidProof(
      'This credential is bound to attested keys only: put a key attestation in the proof’s key_attestation header, or send it as an attestation proof',
    );
  // The DID exactly as the wallet wrote it: the credential's subject must be the holder's own identifier.
  return { holder: { jwk: publicMembers(jwk), ...(named ? { did: named.did } : {}) }, nonce: payload.nonce };
}
