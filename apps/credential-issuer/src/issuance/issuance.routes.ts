import { Router } from 'express';
import { handle, methodNotAllowed, toFieldIssues, ValidationError } from '@svc/http';
import {
  ZCredentialIdParams,
  ZCredentialListQuery,
  ZIssueForSubjectRequest,
  ZRevokeCredentialRequest,
  ZDeriveCredentialRequest,
  ZVcApiIssueRequest,
  ZVcApiVerifyCredentialRequest,
  ZVerifyCredentialRequest,
  ZVerifyPresentationRequest,
} from '@svc/schemas';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { notDerivable, VerificationFailedError } from '../errors.js';
import { SigningJobError } from '../vc/signing-pool.js';
import { claimProblems } from './claim-rules.js';
import { structureProblems } from './credential-structure.js';
import { ownResources } from './related-resources.js';
import { STATEMENT_LIMITS, statementProblems } from './statement-limits.js';
import { credentialIdOf, credentialStatus, listCredentials, revokeCredential } from './credential-records.js';
import { issueForSubject, issueGiven, type IssueContext } from './issue-credential.js';
import { verifyCredential, type VerifyDeps } from '../verification/verify-credential.js';
import { verifyPresentation } from '../verification/verify-presentation.js';
import { requireToken } from '../http/require-token.js';

/** Signing threads are shared per organization, whatever number of API keys it has (../vc/signing-pool.ts). */
const tenantOf = (caller: { organizationId: string }) => `organization:${caller.organizationId}`;

/** A credential or presentation is bounded in statements before it is queued (./statement-limits.ts). */
function withinLimit(document: unknown, field: string): void {
  const problems = statementProblems(document, field, STATEMENT_LIMITS.document, 'one credential or presentation');
  if (problems.length) throw new ValidationError(problems);
}

export function credentialsRouter(deps: AppDeps): Router {
  const router = Router();
  const issuing = requireToken(deps.authenticator, deps.limiter, 'credentials:issue');
  const ctx: IssueContext = { db: deps.db, sql: deps.sql, config: deps.config, keys: deps.issuerKeys, pool: deps.pool, clock: deps.clock };
  const verifying: VerifyDeps = {
    db: deps.db,
    pool: deps.pool,
    publicUrl: deps.config.publicUrl,
    trust: deps.trustedIssuers,
  };

  router
    .route('/credentials/issue')
    .post(
      issuing,
      // Told apart by shape: a `credential` member means the VC API request.
      handle({ body: z.looseObject({}) }, async ({ body }, _req, res) => {
        const caller = res.locals.caller!;
        if (Object.hasOwn(body, 'credential')) {
          const parsed = ZVcApiIssueRequest.safeParse(body);
          if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
          const { credential, options } = parsed.data;
          const subjects = Array.isArray(credential.credentialSubject) ? credential.credentialSubject : [credential.credentialSubject];
          const problems = [
            ...subjects.flatMap((subject, i) =>
              claimProblems(
                Object.fromEntries(Object.entries(subject).filter(([k]) => k !== 'id')),
                Array.isArray(credential.credentialSubject) ? `body.credential.credentialSubject[${i}]` : 'body.credential.credentialSubject',
                { names: false },
              ),
            ),
            ...structureProblems(credential, 'body.credential', ownResources(deps.config.publicUrl)),
          ];
          problems.push(...statementProblems(credential, 'body.credential', STATEMENT_LIMITS.document, 'one credential'));
          if (problems.length) throw new ValidationError(problems);
          const verifiableCredential = await issueGiven(ctx, caller, credential, options);
          deps.counters.issued.inc({ request: 'vc_api' });
          res.status(201).json({ verifiableCredential });
          return;
        }
        const parsed = ZIssueForSubjectRequest.safeParse(body);
        if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
        const problems = claimProblems(parsed.data.claims, 'body.claims');
        if (problems.length) throw new ValidationError(problems);
        const credential = await issueForSubject(ctx, caller, {
          subjectAddress: parsed.data.subject_address,
          claims: parsed.data.claims,
          validUntil: parsed.data.valid_until,
        });
        deps.counters.issued.inc({ request: 'spec' });
        res.json({ message: 'Credential issued', credential });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/verify')
    .post(
      issuing,
      // Told apart by shape: `verifiableCredential` means the VC API request.
      handle({ body: z.looseObject({}) }, async ({ body }, _req, res) => {
        const tenant = tenantOf(res.locals.caller!);
        if (Object.hasOwn(body, 'verifiableCredential')) {
          const parsed = ZVcApiVerifyCredentialRequest.safeParse(body);
          if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
          withinLimit(parsed.data.verifiableCredential, 'body.verifiableCredential');
          const { verified, ...verdict } = await verifyCredential(verifying, parsed.data.verifiableCredential, deps.clock.now(), tenant, parsed.data.options);
          deps.counters.verified.inc({ verified: String(verified) });
          if (!verified) throw new VerificationFailedError(verdict);
          res.json({ verified, ...verdict });
          return;
        }
        const parsed = ZVerifyCredentialRequest.safeParse(body);
        if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
        withinLimit(parsed.data.credential, 'body.credential');
        const verdict = await verifyCredential(verifying, parsed.data.credential, deps.clock.now(), tenant);
        deps.counters.verified.inc({ verified: String(verdict.verified) });
        res.json({ verified: verdict.verified, checks: verdict.checks, errors: verdict.errors.map((e) => e.detail) });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/presentations/verify')
    .post(
      issuing,
      handle({ body: ZVerifyPresentationRequest }, async ({ body }, _req, res) => {
        withinLimit(body.verifiablePresentation, 'body.verifiablePresentation');
        const verdict = await verifyPresentation(verifying, body.verifiablePresentation, body.options ?? {}, tenantOf(res.locals.caller!), deps.clock.now());
        res.json(verdict);
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/derive')
    .post(
      issuing,
      handle({ body: ZDeriveCredentialRequest }, async ({ body }, _req, res) => {
        withinLimit(body.verifiableCredential, 'body.verifiableCredential');
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
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/revoke')
    .post(
      issuing,
      handle({ body: ZRevokeCredentialRequest }, async ({ body }, _req, res) => {
        const result = await revokeCredential(
          deps.db,
          res.locals.caller!.organizationId,
          credentialIdOf(body.credential_id, 'body.credential_id'),
          deps.clock.now(),
        );
        if (result.newly) deps.counters.revoked.inc();
        res.json({ revoked: result.revoked, credential_id: result.credential_id, revoked_at: result.revoked_at });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials')
    .get(
      issuing,
      handle({ query: ZCredentialListQuery }, async ({ query }, _req, res) => {
        res.json(
          await listCredentials(deps.db, res.locals.caller!.organizationId, {
            subjectAddress: query.subject_address,
            limit: query.limit,
            cursor: query.cursor,
          }),
        );
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/:id/status')
    .get(
      issuing,
      handle({ params: ZCredentialIdParams }, async ({ params }, _req, res) => {
        res.json(await credentialStatus(deps.db, res.locals.caller!.organizationId, credentialIdOf(params.id, 'params.id')));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
