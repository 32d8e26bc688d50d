import { handle, toFieldIssues, ValidationError } from '@svc/http';
import { ZIssueForSubjectRequest, ZVcApiIssueRequest } from '@svc/schemas';
import { z } from 'zod';
import { claimProblems } from './claim-rules.js';
import { structureProblems } from './credential-structure.js';
import type { IssuanceDeps } from './deps.js';
import { type IssueContext, issueForSubject, issueGiven } from './issue-credential.js';
import { STATEMENT_LIMITS, statementProblems } from './statement-limits.js';

/** POST /credentials/issue, told apart by shape: a `credential` member means the VC API request. */
export function issueCredentialHandler(deps: IssuanceDeps) {
  const ctx: IssueContext = { db: deps.db, sql: deps.sql, config: deps.config, keys: deps.issuerKeys, pool: deps.pool, clock: deps.clock };
  return handle({ body: z.looseObject({}) }, async ({ body }, _req, res) => {
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
        ...structureProblems(credential, 'body.credential', deps.ownResources),
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
  });
}
