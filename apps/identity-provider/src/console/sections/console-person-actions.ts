/**
 * The console's actions on the actions an organization counts per person, posted from their
 * section: each goes through the function /v2/developer/actions (or, for a reset, the sandbox's
 * /v2/sandbox/actions/{action}/proofs) uses, so the console can do nothing the API cannot.
 */
import { NotFoundError } from '@svc/http';
import { actionView, ZActionName, ZCreateActionRequest, ZUpdateActionRequest } from '@svc/schemas';
import type { Request, Router } from 'express';
import { ACTIONS_PER_ORGANIZATION, createAction, deleteAction, updateAction } from '../../actions/actions.js';
import type { Developer } from '../../developer/developer-auth.js';
import { resetActionProofs } from '../../sandbox/action-resets.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import type { ConsoleActions } from '../console-action.js';
import { type Form, num, one, parsed } from '../console-forms.js';
import type { ActionSummary } from './person-actions-section.js';

/** The organization's actions, oldest first (as the API lists them), each with the proofs counted under it (every person, every period). */
export async function consolePersonActions(deps: SandboxDeps, developer: Developer): Promise<ActionSummary[]> {
  const [rows, counts] = await Promise.all([
    deps.db.action.findMany({ where: { organizationId: developer.organizationId }, orderBy: { createdAt: 'asc' }, take: ACTIONS_PER_ORGANIZATION }),
    deps.db.actionProof.groupBy({ by: ['actionId'], where: { action: { organizationId: developer.organizationId } }, _sum: { count: true } }),
  ]);
  const proofs = new Map(counts.map((c) => [c.actionId, c._sum.count ?? 0]));
  return rows.map((row) => ({ ...actionView(row), proofs: proofs.get(row.id) ?? 0 }));
}

/** An action's name from the path as the API takes one, or 404. */
function actionParam(req: Request): string {
  const parsedName = ZActionName.safeParse(req.params.action);
  if (!parsedName.success) throw new NotFoundError('Not found', 'not_found');
  return parsedName.data;
}

/** What both forms say of an action's limit; an unticked box is absent from a form, so it says false. */
const limitOf = (form: Form) => ({
  description: one(form.description),
  max_per_person: num(form.max_per_person),
  period: one(form.period),
  requires_palm_verification: one(form.requires_palm_verification) === 'true',
});

export function personActionActions(router: Router, deps: SandboxDeps, { signedIn, action }: ConsoleActions): void {
  const done = { section: 'actions' };
  router.post(
    '/console/actions',
    signedIn,
    action(async (developer, form) => {
      const { description, ...limit } = limitOf(form);
      await createAction(deps, developer, parsed(ZCreateActionRequest, { action: one(form.action), ...(description ? { description } : {}), ...limit }));
      return done;
    }),
  );
  router.post(
    '/console/actions/:action',
    signedIn,
    action(async (developer, form, req) => {
      const name = actionParam(req);
      const { description, ...limit } = limitOf(form);
      // An emptied description is removed, as a null does in the API.
      await updateAction(deps, developer, name, parsed(ZUpdateActionRequest, { description: description ?? null, ...limit }));
      return done;
    }),
  );
  router.post(
    '/console/actions/:action/reset',
    signedIn,
    action(async (developer, _form, req) => {
      // As /v2/sandbox answers in production: there is nothing to reset there.
      if (!deps.environment.sandbox) throw new NotFoundError('Not found', 'not_found');
      await resetActionProofs(deps, developer.organizationId, actionParam(req));
      return done;
    }),
  );
  router.post(
    '/console/actions/:action/delete',
    signedIn,
    action(async (developer, _form, req) => {
      await deleteAction(deps, developer, actionParam(req));
      return done;
    }),
  );
}
