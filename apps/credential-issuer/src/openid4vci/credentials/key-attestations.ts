/**
 * Key attestations at the credential endpoint (OpenID4VCI 1.0 Appendix D; HAIP 1.0): a wallet
 * provider vouches for the keys a credential is bound to, either inside a `jwt` proof's header
 * (`key_attestation`, which must list the proof's key) or as the proof itself (proof type
 * `attestation`: its `nonce` a c_nonce of this issuer, one credential per attested key).
 * Configurations listed in KEY_ATTESTATIONS_REQUIRED take attested keys only, and there the
 * attestation must name a key storage and a user authentication this issuer accepts. An
 * attestation with a status entry is refused once its provider has revoked or suspended it.
 */
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { ATTESTATION_ALGORITHMS, AttestationError, attests, type KeyAttestation, verifyKeyAttestation, type WalletProviders } from '@svc/wallet-attestations';
import { decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { StatusListUnavailable } from '../../status-lists/foreign-status-lists.js';
import { invalidProof } from '../errors.js';
import { TOKEN_STATUS_LIST_TYP } from './token-status-lists.js';

/** The key storage and user authentication levels a configuration bound to attested keys accepts (empty: any). */
export interface KeyAttestationLevels {
  keyStorage: readonly string[];
  userAuthentication: readonly string[];
}

export interface KeyAttestationExpectations {
  providers: WalletProviders;
  now: Date;
  /** The wallet provider's status list, as text (RecentStatusLists: fetched at most once a minute). */
  statusList: (uri: string) => Promise<string>;
  /** Where only attested keys are taken: the levels the attestation must name one of. */
  levels?: KeyAttestationLevels | undefined;
}

/** Signed by a trusted provider, at a level accepted here; its status is checked last (checkStatus), after every check that costs nothing. */
async function verified(jwt: unknown, expected: KeyAttestationExpectations): Promise<KeyAttestation> {
  if (typeof jwt !== 'string') throw invalidProof('The key attestation must be a JWT');
  let attestation: KeyAttestation;
  try {
    attestation = await verifyKeyAttestation(jwt, expected);
  } catch (err) {
    if (err instanceof AttestationError) throw invalidProof(err.message);
    throw err;
  }
  meetsLevels(attestation, expected.levels);
  return attestation;
}

function meetsLevels(attestation: KeyAttestation, levels: KeyAttestationLevels | undefined) {
  const check = (name: string, named: string[] | undefined, accepted: readonly string[] | undefined) => {
    if (!accepted?.length || named?.some((level) => accepted.includes(level))) return;
    throw invalidProof(`The key attestation’s ${name} (${named?.join(', ') || 'none'}) is none this issuer accepts here: ${accepted.join(', ')}`);
  };
  check('key_storage', attestation.keyStorage, levels?.keyStorage);
  check('user_authentication', attestation.userAuthentication, levels?.userAuthentication);
}

/**
 * The attestation's entry in its provider's Token Status List: a `statuslist+jwt` for that URI,
 * signed as the provider signs its attestations, unexpired, and the entry 0 (valid). A list that
 * cannot be had refuses the attestation: a revoked wallet unit must not pass because its
 * provider did not answer.
 */
async function checkStatus(attestation: KeyAttestation, status: { uri: string; idx: number }, expected: KeyAttestationExpectations) {
  const jwt = await expected.statusList(status.uri).catch((err: unknown) => {
    if (err instanceof StatusListUnavailable) throw invalidProof(`The key attestation’s status cannot be checked: ${err.message}`);
    throw err;
  });
  let value: number;
  try {
    const signer = await expected.providers.signingKey(attestation.provider, decodeProtectedHeader(jwt), expected.now);
    const { payload } = await jwtVerify(jwt, signer.key, { typ: TOKEN_STATUS_LIST_TYP, algorithms: [...ATTESTATION_ALGORITHMS], currentDate: expected.now });
    if (payload.sub !== status.uri) throw new AttestationError(`the token at ${status.uri} is for ${String(payload.sub)}`);
    value = getListFromStatusListJWT(jwt).getStatus(status.idx);
  } catch (err) {
    const why = err instanceof AttestationError ? err.message : 'it is not a status list token its provider signed, or does not hold the entry';
    throw invalidProof(`The key attestation’s status list: ${why}`);
  }
  if (value !== 0) throw invalidProof('The key attestation is revoked or suspended by its wallet provider');
}

/** A `jwt` proof's `key_attestation` header, checked: a trusted provider's, listing the proof's key. */
export async function checkProofKeyAttestation(jwt: unknown, proofKey: JWK, expected: KeyAttestationExpectations): Promise<void> {
  const attestation = await verified(jwt, expected);
  if (!(await attests(attestation, proofKey))) throw invalidProof('The proof’s key_attestation does not list the key the proof is signed with');
  if (attestation.status) await checkStatus(attestation, attestation.status, expected);
}

/** The keys an `attestation` proof vouches for, and the nonce it was made over (which the caller takes). */
export async function keysOfAttestationProof(jwt: unknown, expected: KeyAttestationExpectations): Promise<{ keys: JWK[]; nonce: string }> {
  const attestation = await verified(jwt, expected);
  if (attestation.nonce === undefined) throw invalidProof('A key attestation used as the proof must carry a nonce from the nonce endpoint');
  if (attestation.status) await checkStatus(attestation, attestation.status, expected);
  return { keys: attestation.attestedKeys, nonce: attestation.nonce };
}

/** What a configuration's metadata says of key attestations when they are required for it: the levels it accepts, if any. */
export const keyAttestationsRequired = (levels: KeyAttestationLevels) => ({
  ...(levels.keyStorage.length ? { key_storage: [...levels.keyStorage] } : {}),
  ...(levels.userAuthentication.length ? { user_authentication: [...levels.userAuthentication] } : {}),
});
