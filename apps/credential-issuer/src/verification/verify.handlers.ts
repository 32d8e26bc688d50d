import { handle, toFieldIssues, ValidationError } from '@svc/http';
import { ZVcApiVerifyCredentialRequest, ZVerifyCredentialRequest, ZVerifyPresentationRequest } from '@svc/schemas';
import { z } from 'zod';
import { VerificationFailedError } from './errors.js';
import { withinDocumentLimit } from '../issuance/statement-limits.js';
import { tenantOf } from '../vc/signing-pool.js';
import type { VerificationDeps } from './deps.js';
import { type VerifyDeps, verifyCredential } from './verify-credential.js';
import { verifyPresentation } from './verify-presentation.js';

const verifyDepsOf = (deps: VerificationDeps): VerifyDeps => ({
  db: deps.db,
  pool: deps.pool,
  publicUrl: deps.config.publicUrl,
  trust: deps.trustedIssuers,
  ownResources: deps.ownResources,
});

/** POST /credentials/verify, told apart by shape: `verifiableCredential` means the VC API request. */
export function verifyCredentialHandler(deps: VerificationDeps) {
  const verifying = verifyDepsOf(deps);
  return handle({ body: z.looseObject({}) }, async ({ body }, _req, res) => {
    const tenant = tenantOf(res.locals.caller!);
    if (Object.hasOwn(body, 'verifiableCredential')) {
      const parsed = ZVcApiVerifyCredentialRequest.safeParse(body);
      if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
      withinDocumentLimit(parsed.data.verifiableCredential, 'body.verifiableCredential');
      const { verified, ...verdict } = await verifyCredential(verifying, parsed.data.verifiableCredential, deps.clock.now(), tenant, parsed.data.options);
      deps.counters.verified.inc({ verified: String(verified) });
      if (!verified) throw new VerificationFailedError(verdict);
      res.json({ verified, ...verdict });
      return;
    }
    const parsed = ZVerifyCredentialRequest.safeParse(body);
    if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
    withinDocumentLimit(parsed.data.credential, 'body.credential');
    const verdict = await verifyCredential(verifying, parsed.data.credential, deps.clock.now(), tenant);
    deps.counters.verified.inc({ verified: String(verdict.verified) });
    res.json({ verified: verdict.verified, checks: verdict.checks, errors: verdict.errors.map((e) => e.detail) });
  });
}

/** POST /presentations/verify: answered whatever the verdict, as the VC API defines. */
export function verifyPresentationHandler(deps: VerificationDeps) {
  const verifying = verifyDepsOf(deps);
  return handle({ body: ZVerifyPresentationRequest }, async ({ body }, _req, res) => {
    withinDocumentLimit(body.verifiablePresentation, 'body.verifiablePresentation');
    const verdict = await verifyPresentation(verifying, body.verifiablePresentation, body.options ?? {}, tenantOf(res.locals.caller!), deps.clock.now());
    res.json(verdict);
  });
}
