import { isUniqueViolation } from '@svc/db';
import { type Action, actionView, storedActionOf, ZActionName, ZCreateActionRequest } from '@svc/schemas';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { orgById } from './lookups.js';

// An organization's actions (one human, one action), as its developers manage them at
// /v2/developer/actions: checked by the same contract, answered in the same shape.

export interface CreateActionInput {
  org: string;
  action: string;
  description?: string | undefined;
  maxPerPerson?: number | undefined;
  period?: string | undefined;
  requiresPalmVerification?: boolean | undefined;
}

/** The flag each member of the API's body comes from, to name it in a refusal. */
const FLAGS: Record<string, string> = {
  action: '--action',
  description: '--description',
  max_per_person: '--max-per-person',
  period: '--period',
  requires_palm_verification: '--without-palm-verification',
};

/** The contract's refusal as one line, naming each flag and why, as the API names each field. */
function refusal(issues: readonly { path: readonly PropertyKey[]; message: string }[], whole: string): AdminError {
  return new AdminError(issues.map((i) => `${i.path.length ? (FLAGS[String(i.path[0])] ?? String(i.path[0])) : whole} ${i.message}`).join('; '));
}

/** Registers an action in the organization; its name is taken once (the nullifiers are made from it). */
export async function createAction(ctx: AdminContext, input: CreateActionInput): Promise<Action> {
  const parsed = ZCreateActionRequest.safeParse({
    action: input.action,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.maxPerPerson !== undefined ? { max_per_person: input.maxPerPerson } : {}),
    ...(input.period !== undefined ? { period: input.period } : {}),
    ...(input.requiresPalmVerification !== undefined ? { requires_palm_verification: input.requiresPalmVerification } : {}),
  });
  if (!parsed.success) throw refusal(parsed.error.issues, '--action');
  const body = parsed.data;
  const org = await orgById(ctx, input.org);
  try {
    const row = await ctx.db.action.create({
      data: { organizationId: org.id, ...storedActionOf(body), createdAt: ctx.now() },
    });
    return actionView(row);
  } catch (err) {
    // The unique index decides, as it does for the API.
    if (isUniqueViolation(err)) throw new AdminError(`organization ${org.id} has an action named ${body.action} already`);
    throw err;
  }
}

/** The organization's actions, oldest first, as GET /v2/developer/actions lists them. */
export async function listActions(ctx: AdminContext, input: { org: string }) {
  const org = await orgById(ctx, input.org);
  const rows = await ctx.db.action.findMany({ where: { organizationId: org.id }, orderBy: { createdAt: 'asc' } });
  return { actions: rows.map(actionView) };
}

/** Deletes an action with every count of it: registered again under the name, it starts afresh. */
export async function deleteAction(ctx: AdminContext, input: { org: string; action: string }) {
  const parsed = ZActionName.safeParse(input.action);
  if (!parsed.success) throw refusal(parsed.error.issues, '--action');
  const name = parsed.data;
  const org = await orgById(ctx, input.org);
  const row = await ctx.db.action.findUnique({
    where: { organizationId_name: { organizationId: org.id, name } },
    include: { _count: { select: { proofs: true } } },
  });
  if (!row) throw new AdminError(`organization ${org.id} has no action named ${name}`);
  await ctx.db.action.delete({ where: { id: row.id } });
  return { action: name, deleted: true, nullifiers_deleted: row._count.proofs };
}
