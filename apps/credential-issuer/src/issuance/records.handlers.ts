import { handle } from '@svc/http';
import { ZCredentialIdParams, ZCredentialListQuery, ZRevokeCredentialRequest } from '@svc/schemas';
import { credentialIdOf, credentialStatus, listCredentials, revokeCredential } from './credential-records.js';
import type { IssuanceDeps } from './deps.js';

/** POST /credentials/revoke: one of the caller's organization's credentials. */
export function revokeCredentialHandler(deps: IssuanceDeps) {
  return handle({ body: ZRevokeCredentialRequest }, async ({ body }, _req, res) => {
    const result = await revokeCredential(
      deps.db,
      res.locals.caller!.organizationId,
      credentialIdOf(body.credential_id, 'body.credential_id'),
      deps.clock.now(),
    );
    if (result.newly) deps.counters.revoked.inc();
    res.json({ revoked: result.revoked, credential_id: result.credential_id, revoked_at: result.revoked_at });
  });
}

/** GET /credentials: the caller's organization's own, filtered by subject and paged. */
export function listCredentialsHandler(deps: IssuanceDeps) {
  return handle({ query: ZCredentialListQuery }, async ({ query }, _req, res) => {
    const { organizationId } = res.locals.caller!;
    const filter = { subjectAddress: query.subject_address, limit: query.limit, cursor: query.cursor };
    // Lag-tolerant: from the read replica unless this organization just issued or revoked.
    res.json(await deps.reads.read(organizationId, (db) => listCredentials(db, organizationId, filter)));
  });
}

/** GET /credentials/:id/status */
export function credentialStatusHandler(deps: IssuanceDeps) {
  return handle({ params: ZCredentialIdParams }, async ({ params }, _req, res) => {
    res.json(await credentialStatus(deps.db, res.locals.caller!.organizationId, credentialIdOf(params.id, 'params.id')));
  });
}
