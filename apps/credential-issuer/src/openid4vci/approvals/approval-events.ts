import type { Db } from '@svc/db';
import type { CoreDeps } from '@svc/runtime';
import type { WebhookEventType } from '@svc/schemas';
import { type SignatureHeaders, type VerifyFailure, verify } from '@svc/webhook-signatures';
import { z } from 'zod';
import { invalidField } from '../../http/errors.js';
import { invalidEventSignature } from '../errors.js';
import { revokeCredential } from '../../issuance/credential-records.js';
import { CREDENTIAL_CONFIGURATIONS } from '../metadata/configurations.js';

const REFUSALS: Record<VerifyFailure, string> = {
  missing_headers: 'webhook-id, webhook-timestamp and webhook-signature are required (Standard Webhooks)',
  timestamp_out_of_tolerance: 'webhook-timestamp is not within five minutes of this server’s clock',
  no_matching_signature: 'webhook-signature does not match the body',
};

/**
 * Checks the identity provider's Standard Webhooks signature over the body's bytes as they arrived,
 * its timestamp within five minutes of this clock (a captured delivery cannot be replayed later);
 * during a secret's rotation a delivery carries two signatures, one per secret. 401 naming what is
 * wrong.
 */
export function verifyEventSignature(secret: string, headers: SignatureHeaders, body: Buffer, now: Date): void {
  const verified = verify(secret, headers, body, { now });
  if (!verified.ok) throw invalidEventSignature(REFUSALS[verified.reason]);
}

/** The events this issuer acts on; any other (webhook.test) is acknowledged and ignored. */
const APPROVAL_EVENTS: readonly string[] = ['wallet_approval.revoked', 'wallet_approval.data_changed'] satisfies WebhookEventType[];
const ZApprovalEvent = z.object({
  data: z.object({
    authorization_id: z.uuid({ message: 'must be an authorization id (a UUID)' }),
    credential_configuration_ids: z.array(z.string().max(100)).max(20),
  }),
});

/**
 * What a verified delivery asks: the approval and the configurations whose credentials on it end
 * (all it granted when the approval was revoked; those whose data changed otherwise), or nothing
 * for an event of another type. 400 naming the field for one of ours that is malformed.
 */
export function approvalEventOf(body: unknown): { authorizationId: string; configurationIds: string[] } | undefined {
  if (!APPROVAL_EVENTS.includes((body as { type?: unknown } | undefined)?.type as string)) return undefined;
  const event = ZApprovalEvent.safeParse(body);
  if (!event.success) {
    const issue = event.error.issues[0]!;
    throw invalidField(['body', ...issue.path].join('.'), issue.message);
  }
  const known = new Set(CREDENTIAL_CONFIGURATIONS.map((c) => c.id));
  return { authorizationId: event.data.data.authorization_id, configurationIds: event.data.data.credential_configuration_ids.filter((id) => known.has(id)) };
}

/** How long this issuer remembers when an approval's credentials ended: longer than any credential request in flight on it. */
const REMEMBERED_SECONDS = 600;
const endedKey = (approval: string) => `wallet:approval-ended:${approval}`;

interface ApprovalDeps {
  db: Db;
  cache: CoreDeps['store']['cache'];
  now: () => Date;
  organizationId: string;
}

/**
 * Revokes the credentials issued on the approval for these configurations (their records are named
 * `<authorization id>#<configuration id>`, one each), each as its organization's API would, with
 * its credential.revoked event. Each is remembered first, so a credential whose request was already
 * past the identity provider's check is revoked by that request itself when it records it
 * (`endedMeanwhile`): whichever of the two writes last sees the other's write. Answers how many
 * were revoked now.
 */
export async function endApprovalCredentials(deps: ApprovalDeps, authorizationId: string, configurationIds: string[]): Promise<number> {
  const approvals = configurationIds.map((id) => `${authorizationId}#${id}`);
  const at = String(deps.now().getTime());
  for (const approval of approvals) await deps.cache.set(endedKey(approval), at, REMEMBERED_SECONDS);
  const issued = await deps.db.issuedCredential.findMany({
    where: { organizationId: deps.organizationId, approval: { in: approvals } },
    select: { credentialId: true },
  });
  let revoked = 0;
  for (const { credentialId } of issued) if ((await revokeCredential(deps.db, deps.organizationId, credentialId, deps.now())).newly) revoked++;
  return revoked;
}

/**
 * After a credential was recorded on `approval` (`<authorization id>#<configuration id>`) from
 * what the identity provider answered when asked at `askedAt`: whether the approval's credentials
 * ended since (then it is revoked here). An end heard of before the asking is already in that
 * answer (the identity provider writes its event with the change), so a wallet that asks after its
 * person's data changed gets a credential with the new data.
 */
export async function endedMeanwhile(deps: ApprovalDeps, approval: string, askedAt: Date): Promise<boolean> {
  const endedAt = await deps.cache.get(endedKey(approval));
  if (endedAt === null || Number(endedAt) < askedAt.getTime()) return false;
  const [authorizationId, configurationId] = approval.split('#') as [string, string];
  await endApprovalCredentials(deps, authorizationId, [configurationId]);
  return true;
}
