import type { Db } from '@svc/db';
import { SigningJobError, type SigningPool } from '../signing-pool.js';
import { revocationOf } from './credential-records.js';
import { structureProblems } from './credential-structure.js';

/**
 * Verifies a credential as a verifier would: the proof (derived proofs as presented; this
 * issuer's base proofs by deriving them internally), the validity window, and revocation.
 * A credential that fails answers `verified: false` with the reasons, never an error status.
 */
export async function verifyCredential(db: Db, pool: SigningPool, credential: Record<string, unknown>, now: Date, tenant: string) {
  const checks = ['proof', 'validity', 'status'];
  let proof: { verified: boolean; errors: string[] };
  try {
    proof = await pool.run('verify', { credential }, tenant);
  } catch (err) {
    if (!(err instanceof SigningJobError)) throw err;
    proof = { verified: false, errors: [err.message] };
  }
  const errors = [...proof.errors, ...structureProblems(credential, 'credential').map((p) => `${p.field} ${p.message}`)];
  const validUntil = typeof credential.validUntil === 'string' && credential.validUntil ? Date.parse(credential.validUntil) : undefined;
  if (validUntil !== undefined && validUntil < now.getTime()) errors.push('the credential expired at validUntil');
  const revocation = await revocationOf(db, credential);
  if (revocation?.revoked) errors.push('the credential has been revoked');
  return { verified: proof.verified && errors.length === 0, checks, errors };
}
