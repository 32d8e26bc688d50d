// Signing, deriving and verifying bbs-2023 credentials with Digital Bazaar's libraries. Runs in
// the signing workers (signing-worker.js): BBS is pure JavaScript and blocks for 50–350 ms.
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import { createDiscloseCryptosuite, createSignCryptosuite, createVerifyCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as vc from '@digitalbazaar/vc';
import jsigs from 'jsonld-signatures';
import { DocumentNotBundledError, documentLoader } from './document-loader.js';
import './generator-cache.js';
import { disguisedMembers, signedFacts } from './signed-facts.js';

/** @typedef {Record<string, any>} Credential A JSON-LD credential, as the libraries take and give it. */
/** @typedef {{ id: string, controller: string, publicKeyMultibase: string, secretKeyMultibase?: string }} IssuerKey */
/** @typedef {import('@digitalbazaar/bbs-2023-cryptosuite').Cryptosuite} Cryptosuite */
/** @typedef {import('@digitalbazaar/vc').VerifyError} VerifyError */

/**
 * bbs-2023-cryptosuite 2.0.1 deletes `proof.created` before hashing the proof configuration.
 * The spec's credential carries `created`, so the proof handed to that step cannot lose it: the
 * value is then hashed with the rest of the configuration, and derivation and verification with
 * the unmodified library accept it (proved in test/bbs.test.ts).
 * @param {Cryptosuite} cryptosuite
 * @returns {Cryptosuite}
 */
export function keepCreated(cryptosuite) {
  return {
    ...cryptosuite,
    createVerifyData: (/** @type {Parameters<Cryptosuite['createVerifyData']>[0]} */ args) =>
      cryptosuite.createVerifyData({
        ...args,
        proof: new Proxy(args.proof, { deleteProperty: (target, key) => (key === 'created' ? true : Reflect.deleteProperty(target, key)) }),
      }),
  };
}

/** @type {Map<string, import('@digitalbazaar/bls12-381-multikey').BlsKeyPair>} */
const keyPairs = new Map();
/** @param {IssuerKey} key */
async function keyPairOf(key) {
  let pair = keyPairs.get(key.id);
  if (!pair) {
    pair = await Bls.from({ type: 'Multikey', id: key.id, controller: key.controller, publicKeyMultibase: key.publicKeyMultibase, secretKeyMultibase: key.secretKeyMultibase });
    keyPairs.set(key.id, pair);
  }
  return pair;
}

/**
 * JSON-LD's safe mode refuses what would not be signed as given with a bare "Safe mode validation
 * error."; say which term, and what to add.
 * @param {unknown} err
 */
function explained(err) {
  // A context the issuer does not bundle: jsonld wraps the loader's own message, which says what to do.
  for (let cause = /** @type {any} */ (err); cause; cause = cause.details?.cause ?? cause.cause) {
    if (cause instanceof DocumentNotBundledError) return new Error(cause.message);
  }
  const event = /** @type {{ details?: { event?: { code?: string, message?: string, details?: { property?: string, type?: string } } } }} */ (err)?.details?.event;
  if (!event) return err;
  const what = event.details ?? {};
  if (event.code === 'invalid property')
    return new Error(
      `"${what.property}" is not defined by the credential's contexts: define it (an embedded context object after the v2 URL is enough) or add https://www.w3.org/ns/credentials/undefined-terms/v2`,
    );
  if (event.code === 'relative @type reference')
    return new Error(`the type "${what.type}" is not defined by the credential's contexts: define it in a context or use an absolute IRI`);
  return new Error(`${event.message ?? 'JSON-LD safe mode refused the credential'} (${event.code})`);
}

/** @param {{ credential: Credential, key: IssuerKey, created: Date, mandatoryPointers: string[] }} job */
export async function signCredential({ credential, key, created, mandatoryPointers }) {
  const pair = await keyPairOf(key);
  const suite = new DataIntegrityProof({
    signer: pair.signer(),
    date: created,
    cryptosuite: keepCreated(createSignCryptosuite({ mandatoryPointers })),
  });
  try {
    return await vc.issue({ credential, suite, documentLoader });
  } catch (err) {
    throw explained(err);
  }
}

/** @param {{ credential: Credential, selectivePointers: string[] }} job */
export async function deriveCredential({ credential, selectivePointers }) {
  const suite = new DataIntegrityProof({ cryptosuite: createDiscloseCryptosuite({ selectivePointers }) });
  return vc.derive({ verifiableCredential: credential, suite, documentLoader });
}

/** A member the issuer judges, written under another name in a credential it was asked to sign. */
export class DisguisedMemberError extends Error {
  /** @override */
  name = 'DisguisedMemberError';
}

/**
 * Signs a credential built from a caller's request: refused, before any signing work, when it states
 * a member the issuer judges (status, issuer, validity, id) other than under that member's own name.
 * @param {{ credential: Credential, key: IssuerKey, created: Date, mandatoryPointers: string[] }} job
 */
export async function signRequested(job) {
  let problem;
  try {
    problem = await disguisedMembers(job.credential);
  } catch (err) {
    throw explained(err);
  }
  if (problem) throw new DisguisedMemberError(problem);
  return signCredential(job);
}

/**
 * A status list credential a verifier can check as it stands: bbs-2023 verifies derived proofs
 * only, so the base proof discloses everything as mandatory and is derived once, selecting
 * nothing more. The list is then signed by this issuer's own DID, as verifiers require (Digital
 * Bazaar's status list library refuses a list whose issuer differs from the credential's).
 * @param {{ credential: Credential, key: IssuerKey, created: Date }} job
 */
export async function signStatusList({ credential, key, created }) {
  const base = await signCredential({ credential, key, created, mandatoryPointers: Object.keys(credential).filter((k) => k !== '@context' && k !== 'id' && k !== 'type').map((k) => `/${k}`) });
  return deriveCredential({ credential: base, selectivePointers: [] });
}

/**
 * bbs-2023 proof values start with a header: 0xd95d02 for a base proof, 0xd95d03 for a derived one.
 * @param {Credential} credential
 */
export function isBaseProof(credential) {
  const value = credential?.proof?.proofValue;
  if (typeof value !== 'string' || !value.startsWith('u')) return false;
  const bytes = Buffer.from(value.slice(1, 5), 'base64url');
  return bytes[0] === 0xd9 && bytes[1] === 0x5d && bytes[2] === 0x02;
}

/**
 * Verifies a derived (selectively disclosed) credential as a verifier would; a base credential
 * is first derived disclosing its whole subject, since bbs-2023 verifies derived proofs only.
 * @param {{ credential: Credential }} job
 */
export async function verifyCredential({ credential }) {
  const { verified, errors } = await verifyPresented(
    isBaseProof(credential) ? await deriveCredential({ credential, selectivePointers: ['/credentialSubject'] }) : credential,
  );
  return { verified, errors };
}

/**
 * `verifyCredential`, with what the verified data says (id, issuer, validity, status entries) read
 * from the dataset the proof covers, for the service to judge: never from the JSON members.
 * `proofVerified` says whether those facts are the issuer's word (an expired credential's are; a
 * tampered one's are not, and are read only to report everything else that is wrong with it).
 * @param {{ credential: Credential }} job
 */
export async function verifyCredentialFacts({ credential }) {
  const presented = isBaseProof(credential) ? await deriveCredential({ credential, selectivePointers: ['/credentialSubject'] }) : credential;
  const verdict = await verifyPresented(presented);
  try {
    return { ...verdict, facts: await signedFacts(presented) };
  } catch (err) {
    return { verified: false, proofVerified: false, errors: [...verdict.errors, /** @type {Error} */ (explained(err)).message ?? String(err)], facts: null };
  }
}

/** @param {Credential} presented a derived credential, or one of another cryptosuite */
async function verifyPresented(presented) {
  const suite = new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() });
  // Revocation is the issuer's own record, checked by the service after this step
  // (../verification/verify-credential.ts); here only the proof and the credential's shape are judged.
  const checkStatus = async () => ({ verified: true });
  const result = await vc.verifyCredential({ credential: presented, suite, documentLoader, checkStatus });
  /** @type {string[]} */
  const errors = [];
  /** @param {VerifyError | undefined} err */
  const collect = (err) => {
    if (!err) return;
    if (Array.isArray(err.errors)) err.errors.forEach(collect);
    else errors.push(err.message ?? String(err));
  };
  collect(result.error);
  for (const r of result.results ?? []) if (!r.verified) collect(r.error);
  // The library refuses on checks of its own too (an expired credential fails its proof purpose):
  // then the proof alone says whether what the credential states is its issuer's word.
  let proofVerified = result.verified === true;
  if (!proofVerified) {
    const proof = await jsigs.verify(presented, { suite, purpose: new vc.CredentialIssuancePurpose(), documentLoader }).catch(() => ({ verified: false }));
    proofVerified = proof.verified === true;
  }
  return { verified: result.verified === true, proofVerified, errors: [...new Set(errors)] };
}
