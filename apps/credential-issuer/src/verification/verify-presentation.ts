import { SigningJobError } from '../vc/signing-pool.js';
import { structureProblems } from '../issuance/credential-structure.js';
import type { SignedFacts } from '../vc/signed-facts.js';
import { CHECKS, judgeStatements, namedIssuer, problem, type Problem, type VerifyDeps } from './verify-credential.js';

interface PoolVerdict {
  verified: boolean;
  presentationErrors: string[];
  credentials: { id?: string; verified: boolean; errors: string[] }[];
  /** What each credential's signed data states, in the order of verifiableCredential; null when unreadable. */
  facts: SignedFacts[] | null;
}

/**
 * A W3C verifiable presentation as a verifier sees it: the holder's proof (with the verifier's
 * challenge and domain) and every credential inside it (its proof, VC DM 2.0's structure, and
 * what its signed data states: a trusted issuer, the validity window, revocation). Answered
 * whatever the verdict, as the VC API defines.
 */
export async function verifyPresentation(
  deps: VerifyDeps,
  presentation: Record<string, unknown>,
  options: { challenge?: string | undefined; domain?: string | undefined; trustedIssuers?: readonly string[] | undefined },
  tenant: string,
  now: Date,
) {
  let verdict: PoolVerdict;
  try {
    verdict = await deps.pool.run<PoolVerdict>('verifyPresentation', { presentation, challenge: options.challenge, domain: options.domain }, tenant);
  } catch (err) {
    if (!(err instanceof SigningJobError)) throw err;
    verdict = { verified: false, presentationErrors: [err.message], credentials: [], facts: null };
  }
  const inside = presentation.verifiableCredential;
  const credentials = (Array.isArray(inside) ? inside : inside ? [inside] : []) as Record<string, unknown>[];
  const warnings: Problem[] = [];
  const credentialResults = await Promise.all(
    credentials.map(async (credential, i) => {
      const result = verdict.credentials[i];
      const errors: Problem[] = (result?.errors ?? []).map((e) => problem('CRYPTOGRAPHIC_SECURITY_ERROR', e));
      if (result && !result.verified && errors.length === 0) errors.push(problem('CRYPTOGRAPHIC_SECURITY_ERROR', 'the credential’s proof does not verify'));
      errors.push(
        ...structureProblems(credential, `verifiablePresentation.verifiableCredential[${i}]`, deps.ownResources).map((p) =>
          problem('MALFORMED_VALUE_ERROR', `${p.field} ${p.message}`),
        ),
      );
      // What an unverified credential states is no one's word.
      const facts = result?.verified ? verdict.facts?.[i] : undefined;
      const judged = facts ? await judgeStatements(deps, facts, now, { checks: CHECKS, trustedIssuers: options.trustedIssuers }) : undefined;
      errors.push(...(judged?.errors ?? []));
      warnings.push(...(judged?.warnings ?? []));
      const verified = errors.length === 0 && result?.verified === true;
      return {
        ...(typeof credential.id === 'string' ? { id: credential.id } : {}),
        verified,
        errors,
        ...(verified ? namedIssuer(judged?.issuer) : {}),
      };
    }),
  );
  const errors = verdict.presentationErrors.map((e) => problem('CRYPTOGRAPHIC_SECURITY_ERROR', e));
  const verified = errors.length === 0 && verdict.verified && credentialResults.every((r) => r.verified);
  return { verified, checks: ['proof', 'credentials'], warnings, errors, credentialResults };
}
