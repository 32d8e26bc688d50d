import { SigningJobError } from '../signing-pool.js';
import { structureProblems } from './credential-structure.js';
import { problem, type Problem, statusProblems, type VerifyDeps } from './verify-credential.js';

interface PoolVerdict {
  verified: boolean;
  presentationErrors: string[];
  credentials: { id?: string; verified: boolean; errors: string[] }[];
}

/**
 * A W3C verifiable presentation as a verifier sees it: the holder's proof (with the verifier's
 * challenge and domain) and every credential inside it (its proof, VC DM 2.0's structure, and
 * revocation when this issuer signed it). Answered whatever the verdict, as the VC API defines.
 */
export async function verifyPresentation(
  deps: VerifyDeps,
  presentation: Record<string, unknown>,
  options: { challenge?: string | undefined; domain?: string | undefined },
  tenant: string,
) {
  let verdict: PoolVerdict;
  try {
    verdict = await deps.pool.run<PoolVerdict>('verifyPresentation', { presentation, challenge: options.challenge, domain: options.domain }, tenant);
  } catch (err) {
    if (!(err instanceof SigningJobError)) throw err;
    verdict = { verified: false, presentationErrors: [err.message], credentials: [] };
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
        ...structureProblems(credential, `verifiablePresentation.verifiableCredential[${i}]`).map((p) =>
          problem('MALFORMED_VALUE_ERROR', `${p.field} ${p.message}`),
        ),
      );
      const status = await statusProblems(deps, credential);
      errors.push(...status.errors);
      warnings.push(...status.warnings);
      return { ...(typeof credential.id === 'string' ? { id: credential.id } : {}), verified: errors.length === 0, errors };
    }),
  );
  const errors = verdict.presentationErrors.map((e) => problem('CRYPTOGRAPHIC_SECURITY_ERROR', e));
  const verified = errors.length === 0 && verdict.verified && credentialResults.every((r) => r.verified);
  return { verified, checks: ['proof', 'credentials'], warnings, errors, credentialResults };
}
