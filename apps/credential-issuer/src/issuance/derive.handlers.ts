import { handle } from '@svc/http';
import { ZDeriveCredentialRequest } from '@svc/schemas';
import { notDerivable } from './errors.js';
import { SigningJobError, tenantOf } from '../vc/signing-pool.js';
import type { IssuanceDeps } from './deps.js';
import { withinDocumentLimit } from './statement-limits.js';

/** POST /credentials/derive: a holder's selective disclosure of a bbs-2023 credential, in the signing threads. */
export function deriveCredentialHandler(deps: IssuanceDeps) {
  return handle({ body: ZDeriveCredentialRequest }, async ({ body }, _req, res) => {
    withinDocumentLimit(body.verifiableCredential, 'body.verifiableCredential');
    let verifiableCredential: unknown;
    try {
      verifiableCredential = await deps.pool.run(
        'derive',
        { credential: body.verifiableCredential, selectivePointers: body.options.selectivePointers },
        tenantOf(res.locals.caller!),
      );
    } catch (err) {
      // The library refuses what it cannot derive: no bbs-2023 base proof, a pointer to nothing, …
      if (err instanceof SigningJobError) throw notDerivable(err.message);
      throw err;
    }
    res.status(201).json({ verifiableCredential });
  });
}
