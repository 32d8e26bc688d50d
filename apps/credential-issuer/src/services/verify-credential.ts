import type { Db } from '@svc/db';
import { SigningJobError, type SigningPool } from '../signing-pool.js';
import { revocationOf } from './credential-records.js';
import { structureProblems, validityMembers } from './credential-structure.js';

export const CHECKS = ['proof', 'validity', 'status'] as const;
export type Check = (typeof CHECKS)[number];

/** A reason a credential failed, as VC Data Model 2.0 §7.2 problem details. */
export interface Problem {
  type: string;
  title: string;
  detail: string;
}

const VC_DM = 'https://www.w3.org/TR/vc-data-model#';
export const problem = (title: 'CRYPTOGRAPHIC_SECURITY_ERROR' | 'MALFORMED_VALUE_ERROR' | 'RANGE_ERROR', detail: string): Problem => ({
  type: `${VC_DM}${title}`,
  title,
  detail,
});
/** Bitstring Status List §3.6: a list this issuer cannot read (it never fetches one from elsewhere). */
export const uncheckedStatusWarning = (url: string): Problem => ({
  type: 'https://www.w3.org/ns/credentials/status-list#STATUS_RETRIEVAL_ERROR',
  title: 'STATUS_RETRIEVAL_ERROR',
  detail: `the status list ${url} is not this issuer's and was not fetched; its status is not checked`,
});

// VC DM 2.0 names no problem type for a revoked credential; this one is the issuer's own.
export const revokedProblem = (): Problem => ({
  type: 'https://www.w3.org/ns/credentials/status#revoked',
  title: 'REVOKED',
  detail: 'the credential has been revoked',
});

/** What verifying needs: the pool for proofs, the database and this issuer's URL for status. */
export interface VerifyDeps {
  db: Db;
  pool: SigningPool;
  publicUrl: string;
}

/** Revocation problems and warnings for one credential, as both verify operations report them. */
export async function statusProblems(deps: VerifyDeps, credential: Record<string, unknown>) {
  const status = await revocationOf(deps.db, deps.publicUrl, credential);
  return { errors: status.revoked ? [revokedProblem()] : [], warnings: status.unchecked.map(uncheckedStatusWarning) };
}

export interface VerifyOptions {
  /** Which checks to run (all by default). */
  checks?: readonly Check[] | undefined;
  /** The proof's purpose must be this (this issuer's proofs are assertionMethod). */
  expectedProofPurpose?: string | undefined;
  /** The proof must carry exactly these (a credential proof rarely does). */
  domain?: string | undefined;
  challenge?: string | undefined;
}

/**
 * Verifies a credential as a verifier would: the proof (derived proofs as presented; this
 * issuer's base proofs by deriving them internally) with its purpose, domain and challenge, VC DM
 * 2.0's structure, the validity window, and revocation. Every failing check is reported, so a
 * credential both tampered and revoked says both.
 */
export async function verifyCredential(deps: VerifyDeps, credential: Record<string, unknown>, now: Date, tenant: string, options: VerifyOptions = {}) {
  const checks = [...(options.checks ?? CHECKS)];
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  if (checks.includes('proof')) {
    let proof: { verified: boolean; errors: string[] };
    try {
      proof = await deps.pool.run('verify', { credential }, tenant);
    } catch (err) {
      if (!(err instanceof SigningJobError)) throw err;
      proof = { verified: false, errors: [err.message] };
    }
    if (!proof.verified)
      errors.push(...(proof.errors.length ? proof.errors : ['the proof does not verify']).map((e) => problem('CRYPTOGRAPHIC_SECURITY_ERROR', e)));
    const given = (credential.proof ?? {}) as Record<string, unknown>;
    for (const [member, expected] of [
      ['proofPurpose', options.expectedProofPurpose],
      ['domain', options.domain],
      ['challenge', options.challenge],
    ] as const) {
      if (expected !== undefined && given[member] !== expected)
        errors.push(problem('CRYPTOGRAPHIC_SECURITY_ERROR', `proof.${member} is not ${JSON.stringify(expected)}`));
    }
  }
  errors.push(...structureProblems(credential, 'credential').map((p) => problem('MALFORMED_VALUE_ERROR', `${p.field} ${p.message}`)));
  if (checks.includes('validity')) {
    const at = (member: string) => (typeof credential[member] === 'string' && credential[member] ? Date.parse(credential[member] as string) : undefined);
    const { from, until } = validityMembers(credential);
    const validFrom = at(from);
    const validUntil = at(until);
    if (validFrom !== undefined && validFrom > now.getTime()) errors.push(problem('RANGE_ERROR', `the credential is not valid before ${from}`));
    if (validUntil !== undefined && validUntil < now.getTime()) errors.push(problem('RANGE_ERROR', `the credential expired at ${until}`));
  }
  if (checks.includes('status')) {
    const status = await statusProblems(deps, credential);
    errors.push(...status.errors);
    warnings.push(...status.warnings);
  }
  return { verified: errors.length === 0, checks, warnings, errors };
}
