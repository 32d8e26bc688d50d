// The credential issuer's failures of verifying credentials.
import { HttpError } from '@svc/http';

interface Verification {
  checks: string[];
  warnings: { type: string; title: string; detail: string }[];
  errors: { type: string; title: string; detail: string }[];
}
/** VC API verify: a credential that fails is a 400 carrying the whole verdict, every failing check. */
export class VerificationFailedError extends HttpError {
  override name = 'VerificationFailedError';
  constructor(readonly verdict: Verification) {
    super(400, 'verification_failed', `The credential did not verify: ${verdict.errors.map((e) => e.detail).join('; ')}`);
  }

  override toBody() {
    return { ...super.toBody(), verified: false as const, ...this.verdict };
  }
}
