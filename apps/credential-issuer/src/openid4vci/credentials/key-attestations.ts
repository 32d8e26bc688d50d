/**
 * Key attestations at the credential endpoint (OpenID4VCI 1.0 Appendix D; HAIP 1.0): a wallet
 * provider vouches for the keys a credential is bound to, either inside a `jwt` proof's header
 * (`key_attestation`, which must list the proof's key) or as the proof itself (proof type
 * `attestation`: its `nonce` a c_nonce of this issuer, one credential per attested key).
 * Configurations listed in KEY_ATTESTATIONS_REQUIRED take attested keys only.
 */
import { AttestationError, attests, type KeyAttestation, verifyKeyAttestation, type WalletProviders } from '@svc/wallet-attestations';
import type { JWK } from 'jose';
import { invalidProof } from '../errors.js';

export interface KeyAttestationExpectations {
  providers: WalletProviders;
  now: Date;
}

async function verified(jwt: unknown, expected: KeyAttestationExpectations): Promise<KeyAttestation> {
  if (typeof jwt !== 'string') throw invalidProof('The key attestation must be a JWT');
  try {
    return await verifyKeyAttestation(jwt, expected);
  } catch (err) {
    if (err instanceof AttestationError) throw invalidProof(err.message);
    throw err;
  }
}

/** A `jwt` proof's `key_attestation` header, checked: a trusted provider's, listing the proof's key. */
export async function checkProofKeyAttestation(jwt: unknown, proofKey: JWK, expected: KeyAttestationExpectations): Promise<void> {
  const attestation = await verified(jwt, expected);
  if (!(await attests(attestation, proofKey))) throw invalidProof('The proof’s key_attestation does not list the key the proof is signed with');
}

/** The keys an `attestation` proof vouches for, and the nonce it was made over (which the caller takes). */
export async function keysOfAttestationProof(jwt: unknown, expected: KeyAttestationExpectations): Promise<{ keys: JWK[]; nonce: string }> {
  const attestation = await verified(jwt, expected);
  if (attestation.nonce === undefined) throw invalidProof('A key attestation used as the proof must carry a nonce from the nonce endpoint');
  return { keys: attestation.attestedKeys, nonce: attestation.nonce };
}

/** What a configuration's metadata says of key attestations when they are required for it (no particular storage or authentication level). */
export const KEY_ATTESTATIONS_REQUIRED = {};
