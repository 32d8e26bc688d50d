import { Router } from 'express';
import { handle, methodNotAllowed, toFieldIssues, ValidationError } from '@svc/http';
import { ZEvmAddress } from '@svc/schemas';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { claimProblems } from '../services/claim-rules.js';
import { credentialStatus, credentialUuid, listCredentials, revokeCredential } from '../services/credential-records.js';
import { issueForSubject, issueGiven, type IssueContext } from '../services/issue-credential.js';
import { verifyCredential } from '../services/verify-credential.js';
import { requireToken } from './require-token.js';

const ZDate = z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

// The spec's request: {subject_address, claims, valid_until?}.
const ZSubjectRequest = z.object({
  subject_address: ZEvmAddress,
  claims: z.record(z.string(), z.unknown(), { error: 'must be a JSON object of claim names to values' }),
  valid_until: ZDate.optional(),
}).strict();

// The W3C VC API request: {credential, options?}.
const ZVcApiRequest = z.object({
  credential: z.object({
    '@context': z.array(z.string()).min(1).refine((c) => c[0] === 'https://www.w3.org/ns/credentials/v2', 'must start with https://www.w3.org/ns/credentials/v2'),
    type: z.array(z.string()).refine((t) => t.includes('VerifiableCredential'), 'must contain VerifiableCredential'),
    issuer: z.union([z.string(), z.object({ id: z.string() }).passthrough()]),
    credentialSubject: z.record(z.string(), z.unknown()),
    proof: z.undefined({ error: 'must be absent: the issuer adds the proof' }).optional(),
  }).passthrough(),
  options: z.record(z.string(), z.unknown()).optional(),
});

export function credentialsRouter(deps: AppDeps): Router {
  const router = Router();
  const issuing = requireToken(deps.authenticator, 'credentials:issue');
  const ctx: IssueContext = { db: deps.db, config: deps.config, keys: deps.issuerKeys, pool: deps.pool, now: deps.now };

  router
    .route('/credentials/issue')
    .post(
      issuing,
      // Told apart by shape: a `credential` member means the VC API request.
      handle({ body: z.looseObject({}) }, async ({ body }, _req, res) => {
        const caller = res.locals.caller!;
        if (Object.hasOwn(body, 'credential')) {
          const parsed = ZVcApiRequest.safeParse(body);
          if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
          const problems = claimProblems(Object.fromEntries(Object.entries(parsed.data.credential.credentialSubject).filter(([k]) => k !== 'id')), 'body.credential.credentialSubject');
          if (problems.length) throw new ValidationError(problems);
          res.status(201).json({ verifiableCredential: await issueGiven(ctx, caller, parsed.data.credential) });
          return;
        }
        const parsed = ZSubjectRequest.safeParse(body);
        if (!parsed.success) throw new ValidationError(toFieldIssues(parsed.error, 'body'));
        const problems = claimProblems(parsed.data.claims, 'body.claims');
        if (problems.length) throw new ValidationError(problems);
        const credential = await issueForSubject(ctx, caller, { subjectAddress: parsed.data.subject_address, claims: parsed.data.claims, validUntil: parsed.data.valid_until });
        res.json({ message: 'Credential issued', credential });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/verify')
    .post(
      issuing,
      handle({ body: z.object({ credential: z.record(z.string(), z.unknown(), { error: 'must be a credential object' }) }) }, async ({ body }, _req, res) => {
        res.json(await verifyCredential(deps.db, deps.pool, body.credential, deps.now()));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/revoke')
    .post(
      issuing,
      handle({ body: z.object({ credential_id: z.string() }) }, async ({ body }, _req, res) => {
        res.json(await revokeCredential(deps.db, res.locals.caller!.organizationId, credentialUuid(body.credential_id, 'body.credential_id'), deps.now()));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials')
    .get(
      issuing,
      handle(
        {
          query: z.object({
            subject_address: ZEvmAddress.optional(),
            limit: z.coerce.number().int().min(1).max(200).default(50),
            cursor: z.string().max(200).optional(),
          }),
        },
        async ({ query }, _req, res) => {
          res.json(await listCredentials(deps.db, res.locals.caller!.organizationId, { subjectAddress: query.subject_address, limit: query.limit, cursor: query.cursor }));
        },
      ),
    )
    .all(methodNotAllowed);

  router
    .route('/credentials/:id/status')
    .get(
      issuing,
      handle({ params: z.object({ id: z.string() }) }, async ({ params }, _req, res) => {
        res.json(await credentialStatus(deps.db, res.locals.caller!.organizationId, credentialUuid(params.id, 'params.id')));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
