import { type Db, outboxInsert } from '@svc/db';
import type { KeyEncryption } from '@svc/signing-keys';
import { type DcqlQuery, PRESENTATION_FAILED_ANSWERS, type PresentablePreset, type PresentationResult, webhookEvent } from '@svc/schemas';
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
  /** Same device: where the wallet sends the person once it has answered (with a response code). */
  redirect_uri?: string;
  /** The verifier's client_id when the request was made (its link names it), kept across a certificate renewal; absent on older requests. */
  client_id?: string;
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
      /** `privateJwk()` opens the sealed half: only an answer needs it, not a read of the result or the request object. */
      responseKey: { publicJwk: JWK; privateJwk: () => JWK };
      expiresAt: Date;
      /** What the last refused answer failed, while the request is still open. */
      lastRefusal: Outcome | undefined;
    }
  | {
      status: 'verified' | 'failed';
      id: string;
      organizationId: string;
      result: Outcome;
      expiresAt: Date;
      /** Set when a wallet's redirect carried a response code: reading the result needs it. */
      responseCodeHash: string | null;
    }
  | { status: 'expired'; id: string; organizationId: string; expiresAt: Date; lastRefusal: Outcome | undefined };

type Row = NonNullable<Awaited<ReturnType<Db['presentationRequest']['findUnique']>>>;

/** What a wallet is told of a request that is not open, whether unknown, answered or expired. */
export const NOT_OPEN = 'This presentation request is not open: ask the verifier for a new one';

/** The sealed key's label: the request's own, so a sealed key moved to another row does not open. */
export const responseKeyLabel = (id: string) => `presentation-request:${id}`;

export function stateOf(row: Row, now: Date, keys: KeyEncryption): PresentationState {
  const base = { id: row.id, organizationId: row.organizationId, expiresAt: row.expiresAt };
  if (row.status === 'verified' || row.status === 'failed')
    return { ...base, status: row.status, result: row.result as Outcome, responseCodeHash: row.responseCodeHash };
  const lastRefusal = (row.result as Outcome | null) ?? undefined;
  if (row.expiresAt <= now) return { ...base, status: 'expired', lastRefusal };
  const sealed = row.responseKey as { publicJwk: JWK; sealed: unknown };
  return {
    ...base,
    status: 'pending',
    asked: row.query as unknown as AskedFor,
    nonce: row.nonce,
    state: row.state,
    responseKey: { publicJwk: sealed.publicJwk, privateJwk: () => keys.open<JWK>(sealed.sealed, responseKeyLabel(row.id)) },
    lastRefusal,
  };
}

export async function findRequest(db: Db, id: string, now: Date, keys: KeyEncryption): Promise<PresentationState | undefined> {
  const row = await db.presentationRequest.findUnique({ where: { id } });
  return row ? stateOf(row, now, keys) : undefined;
}

/** What recording an answer did: closed the request (verified, or failed for the last time), left it open, or found it closed. */
export type Recorded = 'closed' | 'open' | 'not open';

/**
 * Records an answer if the request is still open, with its webhook event in the same transaction.
 * A verified answer closes it, with the hash of the response code its wallet's redirect carries,
 * if any. A refused one closes it only when it is the third: anyone who saw the link can encrypt
 * to the request's key, so one refused answer must not end it for the wallet.
 */
export async function recordOutcome(
  db: Db,
  request: { id: string; organizationId: string },
  outcome: Outcome,
  now: Date,
  responseCodeHash: string | null = null,
): Promise<Recorded> {
  return db.$transaction(async (tx) => {
    const result = JSON.stringify(outcome);
    // The private key goes when the request closes: nothing can be decrypted for it again.
    const rows = await tx.$queryRaw<{ status: string }[]>`
      UPDATE "PresentationRequest"
      SET "failedAnswers" = "failedAnswers" + ${outcome.status === 'failed' ? 1 : 0},
          "status" = CASE WHEN ${outcome.status} = 'verified' THEN 'verified'
                          WHEN "failedAnswers" + 1 >= ${PRESENTATION_FAILED_ANSWERS} THEN 'failed' ELSE 'pending' END,
          "result" = ${result}::jsonb
      WHERE "id" = ${request.id}::uuid AND "status" = 'pending' AND "expiresAt" > ${now}
      RETURNING "status"`;
    const status = rows[0]?.status;
    if (!status) return 'not open';
    if (status === 'pending') return 'open';
    await tx.presentationRequest.update({
      where: { id: request.id },
      data: { answeredAt: now, responseKey: {}, ...(status === 'verified' && responseCodeHash ? { responseCodeHash } : {}) },
    });
    await outboxInsert(tx, {
      organizationId: request.organizationId,
      event: webhookEvent(status === 'verified' ? 'presentation.verified' : 'presentation.failed', { presentation_request_id: request.id }),
      subject: request.id,
    });
    return 'closed';
  });
}

/** The result as GET /presentation-requests/{id} answers it. */
export function resultOf(state: PresentationState): PresentationResult {
  const base = { id: state.id, expires_at: state.expiresAt.toISOString() };
  if (state.status === 'pending' || state.status === 'expired')
    return { ...base, status: state.status, ...(state.lastRefusal?.errors ? { errors: state.lastRefusal.errors } : {}) };
  return { ...base, ...state.result, status: state.status };
}
