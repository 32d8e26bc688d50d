// Verifying a W3C verifiable presentation as a verifier would: the holder's own proof
// (eddsa-rdfc-2022 or ecdsa-rdfc-2019, with the verifier's challenge and domain) and every
// credential inside it (bbs-2023 derived, eddsa-rdfc-2022, ecdsa-rdfc-2019). Runs in the signing
// threads, like the rest of ./bbs.js.
import { createVerifyCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as ecdsaRdfc2019 } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { documentLoader } from './document-loader.js';
import { presentationFacts } from './signed-facts.js';

/** @typedef {import('./bbs.js').Credential} Credential */
/** @typedef {import('@digitalbazaar/vc').VerifyError} VerifyError */

/** One verifier per cryptosuite a presentation or its credentials may carry. */
const suites = () => [
  new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
  new DataIntegrityProof({ cryptosuite: ecdsaRdfc2019 }),
  new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() }),
];

/** @param {VerifyError | undefined} err @param {string[]} into */
function collect(err, into) {
  if (!err) return;
  if (Array.isArray(err.errors)) for (const e of err.errors) collect(e, into);
  else into.push(err.message ?? String(err));
}

/**
 * @param {{ presentation: Credential, challenge?: string, domain?: string }} job
 * @returns {Promise<{ verified: boolean, presentationErrors: string[], credentials: { id?: string, verified: boolean, errors: string[] }[], facts: import('./signed-facts.js').SignedFacts[] | null }>}
 */
export async function verifyPresentation({ presentation, challenge, domain }) {
  // Revocation of credentials this issuer signed is its own record, checked by the service afterwards.
  const checkStatus = async () => ({ verified: true });
  const result = await vc.verify({ presentation, challenge, domain, suite: suites(), documentLoader, checkStatus });
  /** @type {string[]} */
  const presentationErrors = [];
  const presentationResult = /** @type {{ verified?: boolean, error?: VerifyError } | undefined} */ (result.presentationResult);
  if (!presentationResult?.verified) collect(presentationResult?.error ?? result.error, presentationErrors);
  const credentials = (/** @type {{ credentialId?: string, verified: boolean, error?: VerifyError }[] | undefined} */ (result.credentialResults) ?? []).map((r) => {
    /** @type {string[]} */
    const errors = [];
    if (!r.verified) collect(r.error, errors);
    return { id: r.credentialId, verified: r.verified, errors: [...new Set(errors)] };
  });
  if (!presentationResult && result.error) collect(result.error, presentationErrors);
  // What each credential states, from the data its proof covers (./signed-facts.js).
  let facts = null;
  try {
    facts = await presentationFacts(presentation);
  } catch (err) {
    presentationErrors.push(/** @type {Error} */ (err).message ?? String(err));
  }
  return { verified: result.verified === true && facts !== null, presentationErrors: [...new Set(presentationErrors)], credentials, facts };
}
