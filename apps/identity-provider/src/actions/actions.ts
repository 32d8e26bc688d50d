import { type Action as Row, isUniqueViolation, unlessGone } from '@svc/db';
import { type Action, actionView, storedActionOf, type ZCreateActionRequest, type ZUpdateActionRequest } from '@svc/schemas';
import type { z } from 'zod';
import type { Developer } from '../developer/developer-auth.js';
import { actionExists, actionNotFound } from '../errors.js';
import type { ActionDeps } from './deps.js';

/** How many actions an organization keeps. */
export const ACTIONS_PER_ORGANIZATION = 1000;

export async function createAction(deps: ActionDeps, developer: Developer, body: z.output<typeof ZCreateActionRequest>): Promise<Action> {
  try {
    const row = await deps.db.action.create({
      data: { organizationId: developer.organizationId, ...storedActionOf(body), createdAt: deps.clock.now() },
    });
    return actionView(row);
  } catch (err) {
    // The unique index decides between two requests for one name at once.
    if (isUniqueViolation(err)) throw actionExists(body.action);
    throw err;
  }
}

export async function listActions(deps: ActionDeps, developer: Developer) {
  // Lag-tolerant: from the read replica unless this organization just wrote (see ReplicaReads).
  const rows = await deps.reads.read(developer.organizationId, (db) =>
    db.action.findMany({ where: { organizationId: developer.organizationId }, orderBy: { createdAt: 'asc' }, take: ACTIONS_PER_ORGANIZATION }),
  );
  return { items: rows.map(actionView) };
}

/** The organization's action of that name; another organization's is not found. */
export async function actionOf(deps: Pick<ActionDeps, 'db'>, organizationId: string, name: string): Promise<Row> {
  const row = await deps.db.action.findUnique({ where: { organizationId_name: { organizationId, name } } });
  if (!row) throw actionNotFound();
  return row;
}

/** A new limit or period counts from the proofs already made: lowering the limit refuses whoever is over it now. */
export async function updateAction(deps: ActionDeps, developer: Developer, name: string, body: z.output<typeof ZUpdateActionRequest>): Promise<Action> {
  const row = await actionOf(deps, developer.organizationId, name);
  const updated = await unlessGone(
    deps.db.action.update({
      where: { id: row.id },
      data: {
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.max_per_person !== undefined ? { maxPerPerson: body.max_per_person } : {}),
        ...(body.period !== undefined ? { period: body.period } : {}),
        ...(body.requires_palm_verification !== undefined ? { requiresPalmVerification: body.requires_palm_verification } : {}),
      },
    }),
    actionNotFound,
  );
  return actionView(updated);
}

/** Gone with its proofs: an action registered again under the name starts every count afresh. */
export async function deleteAction(deps: ActionDeps, developer: Developer, name: string): Promise<void> {
  const row = await actionOf(deps, developer.organizationId, name);
  await unlessGone(deps.db.action.delete({ where: { id: row.id } }), actionNotFound);
}
