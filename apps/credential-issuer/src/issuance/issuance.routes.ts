import { type RequestHandler, Router } from 'express';
import { methodNotAllowed } from '@svc/http';
import { requireToken } from '../http/require-token.js';
import type { IssuanceDeps } from './deps.js';
import { deriveCredentialHandler } from './derive.handlers.js';
import { issueCredentialHandler } from './issue.handlers.js';
import { credentialStatusHandler, listCredentialsHandler, revokeCredentialHandler } from './records.handlers.js';

/**
 * Issuing credentials and the records of what was issued, all with an API token that may issue:
 *   POST /credentials/issue         the spec's request, or the W3C VC API's (told apart by shape)
 *   POST /credentials/derive        a bbs-2023 credential with only the statements a holder shows
 *   POST /credentials/revoke        revoke one of the organization's credentials
 *   GET  /credentials               the organization's credentials, filtered and paged
 *   GET  /credentials/:id/status    whether one is revoked
 */
export function issuanceRouter(deps: IssuanceDeps): Router {
  const router = Router();
  const issuing = requireToken(deps, 'credentials:issue');
  // Recorded before the write runs, so the caller's next list cannot reach a replica without it.
  const writing: RequestHandler = async (_req, res, next) => {
    await deps.reads.wrote(res.locals.caller!.organizationId);
    next();
  };
  router.route('/credentials/issue').post(issuing, writing, issueCredentialHandler(deps)).all(methodNotAllowed);
  router.route('/credentials/derive').post(issuing, writing, deriveCredentialHandler(deps)).all(methodNotAllowed);
  router.route('/credentials/revoke').post(issuing, writing, revokeCredentialHandler(deps)).all(methodNotAllowed);
  router.route('/credentials').get(issuing, listCredentialsHandler(deps)).all(methodNotAllowed);
  router.route('/credentials/:id/status').get(issuing, credentialStatusHandler(deps)).all(methodNotAllowed);
  return router;
}
