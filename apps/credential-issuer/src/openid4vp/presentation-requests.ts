import { type Db, outboxInsert } from '@svc/db';
import type { KeyEncryption } from '@svc/signing-keys';
import { type DcqlQuery, type PresentablePreset, type PresentationResult, webhookEvent } from '@svc/schemas';
import type { JWK } from 'jose';

/** What the integrator asked, as kept beside the request (never the wallet's answer). */
export interface AskedFor {
  dcql_query: DcqlQuery;
  presets?: PresentablePreset[];
  policy?: Record<string, unknown>;
  trusted_issuers?: string[];
  response_mode: 'direct_post.jwt' | 'dc_api.jwt';
  expected_origins?: string[];
  purpose?: string;
}

/** What the answer of a request becomes: all that is kept of a presentation. */
export type Outcome = Omit<PresentationResult, 'id' | 'status' | 'expires_at'> & { status: 'verified' | 'failed' };

/** A request as its handlers see it: open (with what answering needs), answered, or past its time. */
export type PresentationState =
  | {
      status: 'pending';
      id: string;
      organizationId: string;
      asked: AskedFor;
      nonce: string;
      state: string;
      responseKey: { publicJwk: JWK; privateJwk: JWK };
      expiresAt: Date;
    }
  | { status: 'verified' | 'failed'; id: string; organizationId: string; result: Outcome; expiresAt: Date }
  | { status: 'expired'; id: string; organizationId: string; expiresAt: Date };

type Row = NonNullable<Awaited<ReturnType<Db['presentationRequest']['findUnique']>>>;

/** The sealed key's label: the request's own, so a sealed key moved to another row does not open. */
export const responseKeyLabel = (id: string) => `presentation-request:${id}`;

export function stateOf(row: Row, now: Date, keys: KeyEncryption): PresentationState {
  const base = { id: row.id, organizationId: row.organizationId, expiresAt: row.expiresAt };
  if (row.status === 'verified' || row.status === 'failed') return { ...base, status: row.status, result: row.result as Outcome };
  if (row.expiresAt <= now) return { ...base, status: 'expired' };
  const sealed = row.responseKey as { publicJwk: JWK; sealed: unknown };
  return {
    ...base,
    status: 'pending',
    asked: row.query as unknown as AskedFor,
    nonce: row.nonce,
    state: row.state,
    responseKey: { publicJwk: sealed.publicJwk, privateJwk: keys.open<JWK>(sealed.sealed, responseKeyLabel(row.id)) },
  };
}

export async function findRequest(db: Db, id: string, now: Date, keys: KeyEncryption): Promise<PresentationState | undefined> {
  const row = await db.presentationRequest.findUnique({ where: { id } });
  return row ? stateOf(row, now, keys) : undefined;
}

/**
 * Records the answer if the request is still open, with its webhook event in the same transaction:
 * false when another answer got there first (the first answer is final).
 */
export async function recordOutcome(db: Db, request: { id: string; organizationId: string }, outcome: Outcome, now: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.presentationRequest.updateMany({
      where: { id: request.id, status: 'pending', expiresAt: { gt: now } },
      // The private key goes with the answer: nothing can be decrypted for this request again.
      data: { status: outcome.status, result: outcome as never, answeredAt: now, responseKey: {} },
    });
    if (count === 0) return false;
    await outboxInsert(tx, {
      organizationId: request.organizationId,
      event: webhookEvent(outcome.status === 'verified' ? 'presentation.verified' : 'presentation.failed', { presentation_request_id: request.id }),
      subject: request.id,
    });
    return true;
  });
}

/** The result as GET /presentation-requests/{id} answers it. */
export function resultOf(state: PresentationState): PresentationResult {
  const base = { id: state.id, expires_at: state.expiresAt.toISOString() };
  if (state.status === 'verified' || state.status === 'failed') return { ...base, ...state.result, status: state.status };
  return { ...base, status: state.status };
}
