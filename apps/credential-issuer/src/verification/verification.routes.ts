import { Router } from 'express';
import { methodNotAllowed } from '@svc/http';
import { requireToken } from '../http/require-token.js';
import type { VerificationDeps } from './deps.js';
import { verifyCredentialHandler, verifyPresentationHandler } from './verify.handlers.js';

/**
 * Verifying, with an API token that may issue:
 *   POST /credentials/verify      a credential: the spec's request, or the W3C VC API's (told apart by shape)
 *   POST /presentations/verify    a W3C verifiable presentation and every credential in it
 */
export function verificationRouter(deps: VerificationDeps): Router {
  const router = Router();
  const issuing = requireToken(deps, 'credentials:issue');
  router.route('/credentials/verify').post(issuing, verifyCredentialHandler(deps)).all(methodNotAllowed);
  router.route('/presentations/verify').post(issuing, verifyPresentationHandler(deps)).all(methodNotAllowed);
  return router;
}
