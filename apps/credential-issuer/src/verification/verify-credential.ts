import type { Db } from '@svc/db';
import { SigningJobError, type SigningPool } from '../vc/signing-pool.js';
import type { SignedFacts } from '../vc/signed-facts.js';
import { revocationOf } from '../issuance/credential-records.js';
import { structureProblems } from '../issuance/credential-structure.js';
import { STATUS_LIST_CREDENTIAL } from '../status-lists/status-lists.js';
import type { Trust, TrustedIssuers } from './trusted-issuers.js';

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
/** Bitstring Status List §3.6: a status this issuer cannot read (it never fetches a list from elsewhere). */
export const uncheckedStatusWarning = (where: string): Problem => ({
  type: 'https://www.w3.org/ns/credentials/status-list#STATUS_RETRIEVAL_ERROR',
  title: 'STATUS_RETRIEVAL_ERROR',
  detail: `the status at ${where} is not one of this issuer's lists or records and was not fetched; it is not checked`,
});

// VC DM 2.0 names no problem type for a revoked credential; this one is the issuer's own.
export const revokedProblem = (): Problem => ({
  type: 'https://www.w3.org/ns/credentials/status#revoked',
  title: 'REVOKED',
  detail: 'the credential has been revoked',
});

/** An issuer this service does not trust: its own DIDs by default, others only when the caller or the operator names them. */
export const untrustedIssuerProblem = (issuer: string): Problem => ({
  type: 'https://www.w3.org/ns/credentials/issuer#untrusted',
  title: 'UNTRUSTED_ISSUER',
  detail: `${issuer} is not a trusted issuer: this service trusts its own DIDs; name others in options.trustedIssuers`,
});

/** What verifying needs: the pool for proofs, the database and this issuer's URL for status, whom to trust. */
export interface VerifyDeps {
  db: Db;
  pool: SigningPool;
  publicUrl: string;
  trust: TrustedIssuers;
  /** The bytes of what this issuer serves, for relatedResource digests (../openid4vci/metadata.ts). */
  ownResources: (url: string) => string | undefined;
}

export interface VerifyOptions {
  /** Which checks to run (all by default). */
  checks?: readonly Check[] | undefined;
  /** The proof's purpose must be this (this issuer's proofs are assertionMethod). */
  expectedProofPurpose?: string | undefined;
  /** The proof must carry exactly these (a credential proof rarely does). */
  domain?: string | undefined;
  challenge?: string | undefined;
  /** Issuers the caller trusts beside this one. */
  trustedIssuers?: readonly string[] | undefined;
}

/** Which issuer a verified credential came from, and why it is trusted. */
export interface IssuerVerdict {
  id: string;
  trustedBy: Trust;
}

/**
 * Everything judged from what a credential states (read from its signed data, never from JSON
 * member names: ../vc/signed-facts.js): exactly one issuer, and a trusted one; the validity window;
 * revocation, where a credential of this issuer must carry a status entry of this issuer.
 */
export async function judgeStatements(
  deps: VerifyDeps,
  facts: SignedFacts,
  now: Date,
  options: { checks: readonly Check[]; trustedIssuers?: readonly string[] | undefined },
) {
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  let issuer: IssuerVerdict | undefined;
  if (facts.issuers.length !== 1) {
    errors.push(problem('MALFORMED_VALUE_ERROR', `the credential states ${facts.issuers.length} issuers; it must state exactly one`));
  } else {
    const trustedBy = await deps.trust.trusts(facts.issuers[0]!, options.trustedIssuers);
    if (!trustedBy) errors.push(untrustedIssuerProblem(facts.issuers[0]!));
    else issuer = { id: facts.issuers[0]!, trustedBy };
  }
  if (options.checks.includes('validity')) {
    for (const { member, value } of facts.validFrom) {
      const at = Date.parse(value);
      if (value !== '' && Number.isNaN(at)) errors.push(problem('MALFORMED_VALUE_ERROR', `${member} is not a dateTime`));
      else if (at > now.getTime()) errors.push(problem('RANGE_ERROR', `the credential is not valid before ${member}`));
    }
    for (const { member, value } of facts.validUntil) {
      const at = Date.parse(value);
      // Credentials of the spec's shape issued by earlier releases sign validUntil "" for no expiry: they keep verifying.
      if (value !== '' && Number.isNaN(at)) errors.push(problem('MALFORMED_VALUE_ERROR', `${member} is not a dateTime`));
      else if (at < now.getTime()) errors.push(problem('RANGE_ERROR', `the credential expired at ${member}`));
    }
  }
  if (options.checks.includes('status') && facts.issuers.length === 1) {
    const status = await revocationOf(deps.db, deps.publicUrl, facts.issuers[0]!, facts);
    if (status.revoked) errors.push(revokedProblem());
    warnings.push(...status.unchecked.map(uncheckedStatusWarning));
    // A status list carries no status of its own (Bitstring Status List §2.2); every other
    // credential of this issuer is revocable, and one that is not cannot be trusted to be current.
    if (issuer?.trustedBy === 'this issuer' && status.own === 0 && !facts.types.includes(STATUS_LIST_CREDENTIAL))
      errors.push(problem('MALFORMED_VALUE_ERROR', 'the credential carries no status entry of this issuer, so its revocation cannot be checked'));
  }
  return { errors, warnings, issuer };
}

/** Which issuer matched, said when another than this one was trusted (the answer for this one's own is unchanged). */
export const namedIssuer = (issuer: IssuerVerdict | undefined) => (issuer && issuer.trustedBy !== 'this issuer' ? { issuer } : {});

/**
 * Verifies a credential as a verifier would: the proof (derived proofs as presented; this
 * issuer's base proofs by deriving them internally) with its purpose, domain and challenge, VC DM
 * 2.0's structure, then what the signed data states (judgeStatements). Every failing check is
 * reported, so a credential both tampered and revoked says both.
 */
export async function verifyCredential(deps: VerifyDeps, credential: Record<string, unknown>, now: Date, tenant: string, options: VerifyOptions = {}) {
  const checks = [...(options.checks ?? CHECKS)];
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  let proof: { verified: boolean; proofVerified: boolean; errors: string[]; facts: SignedFacts | null };
  try {
    proof = await deps.pool.run('verify', { credential }, tenant);
  } catch (err) {
    if (!(err instanceof SigningJobError)) throw err;
    proof = { verified: false, proofVerified: false, errors: [err.message], facts: null };
  }
  if (checks.includes('proof')) {
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
  errors.push(...structureProblems(credential, 'credential', deps.ownResources).map((p) => problem('MALFORMED_VALUE_ERROR', `${p.field} ${p.message}`)));
  let issuer: IssuerVerdict | undefined;
  // Whatever checks were asked for, nothing unsigned is trusted: without a verified proof nobody
  // is known to have issued the credential (a forgery naming this issuer must not pass on
  // options.checks: ["validity"]). What it states is still judged, to report all that is wrong.
  if (!proof.proofVerified && !checks.includes('proof'))
    errors.push(problem('CRYPTOGRAPHIC_SECURITY_ERROR', 'the proof does not verify, so who issued the credential is not known'));
  if (proof.facts) {
    const judged = await judgeStatements(deps, proof.facts, now, { checks, trustedIssuers: options.trustedIssuers });
    errors.push(...judged.errors);
    warnings.push(...judged.warnings);
    issuer = judged.issuer;
  } else if (proof.verified) {
    // Verified but unreadable cannot happen with the same contexts; refuse rather than guess.
    errors.push(problem('MALFORMED_VALUE_ERROR', 'the credential’s signed data could not be read'));
  }
  return { verified: errors.length === 0, checks, warnings, errors, ...(errors.length === 0 ? namedIssuer(issuer) : {}) };
}
