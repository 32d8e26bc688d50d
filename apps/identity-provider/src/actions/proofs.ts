import { createHash } from 'node:crypto';
import { Prisma, unlessGone } from '@svc/db';
import { type ActionPeriod, type Proof, webhookEvent } from '@svc/schemas';
import { actionNotFound, MaxVerificationsReached, notUniqueHuman, proofNotFound } from '../errors.js';
import { actionOf } from './actions.js';
import type { ActionDeps } from './deps.js';
import { nullifierOf, periodOf } from './nullifier.js';

/** SHA-256 of the signal's UTF-8 bytes, lowercase hex: what binds a proof to it (a vote's choice, a wallet address). */
export const signalHashOf = (signal: string) => createHash('sha256').update(signal, 'utf8').digest('hex');

export interface ProofRequest {
  organizationId: string;
  action: string;
  /** The person behind the access token: used for the nullifier and palm verification, never stored. */
  userId: string;
  signal?: string | undefined;
}

interface Counted {
  count: number;
  provedAt: Date;
}

/**
 * One proof of an action by one person: counted under the nullifier if the count is below the
 * action's limit, or refused with the same nullifier. The check and the count are one statement
 * (an upsert whose update holds only below the limit), so parallel proofs on any number of
 * replicas never pass the limit together; PostgreSQL alone decides. The action.proved event is
 * written by the same statement, so it exists exactly when the proof does.
 */
export async function proveAction(deps: ActionDeps, request: ProofRequest): Promise<Proof> {
  const action = await actionOf(deps, request.organizationId, request.action);
  if (action.requiresPalmVerification) {
    const user = await deps.db.user.findUnique({ where: { id: request.userId }, select: { palmVerified: true } });
    if (!user?.palmVerified) throw notUniqueHuman();
  }
  const now = deps.clock.now();
  const period = periodOf(action.period as ActionPeriod, now);
  const nullifier = nullifierOf(deps.config.nullifierSecret, { organizationId: request.organizationId, action: action.name, userId: request.userId, period });
  const signalHash = request.signal === undefined ? null : signalHashOf(request.signal);
  const event = webhookEvent('action.proved', { action: action.name, nullifier });
  // The limit is read in the statement, not from the row above: a PATCH meanwhile is honoured.
  const [counted] = await unlessGone(
    deps.db.$queryRaw<Counted[]>(Prisma.sql`
    WITH proof AS (
      INSERT INTO "ActionProof" ("actionId", "nullifier", "count", "signalHash", "provedAt")
      VALUES (${action.id}::uuid, ${nullifier}, 1, ${signalHash}, ${now})
      ON CONFLICT ("actionId", "nullifier") DO UPDATE
        SET "count" = "ActionProof"."count" + 1, "signalHash" = EXCLUDED."signalHash", "provedAt" = EXCLUDED."provedAt"
        WHERE "ActionProof"."count" < (SELECT "maxPerPerson" FROM "Action" WHERE "id" = EXCLUDED."actionId")
      RETURNING "count", "provedAt"
    ), told AS (
      INSERT INTO "WebhookEvent" ("organizationId", "type", "data", "occurredAt")
      SELECT ${request.organizationId}::uuid, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${now} FROM proof
    )
    SELECT "count", "provedAt" FROM proof`),
    actionNotFound,
  );
  if (!counted) throw new MaxVerificationsReached(nullifier, action.maxPerPerson);
  return {
    action: action.name,
    nullifier,
    ...(signalHash ? { signal_hash: signalHash } : {}),
    count: counted.count,
    max_per_person: action.maxPerPerson,
    proved_at: counted.provedAt.toISOString(),
  };
}

/** What the integrator's backend reads of a nullifier it was handed: the count and the latest proof, or 404. */
export async function checkProof(deps: ActionDeps, organizationId: string, name: string, nullifier: string) {
  const action = await actionOf(deps, organizationId, name);
  const proof = await deps.db.actionProof.findUnique({ where: { actionId_nullifier: { actionId: action.id, nullifier } } });
  if (!proof) throw proofNotFound();
  return {
    nullifier: proof.nullifier,
    count: proof.count,
    proved_at: proof.provedAt.toISOString(),
    ...(proof.signalHash ? { signal_hash: proof.signalHash } : {}),
  };
}
