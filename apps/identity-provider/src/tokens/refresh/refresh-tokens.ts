import { CallGroups, type Sql, statement, type TimestampBatch } from '@svc/db';

/** A presented refresh token with what its rotation depends on. */
export interface PresentedRefreshToken {
  authorizationId: string;
  applicationId: string;
  status: string;
  userId: string | null;
  authTime: Date | null;
  acr: string | null;
  amr: string[];
  sessionId: string | null;
  /** The authorization's RFC 9396 details (credentials for a wallet), if any. */
  authorizationDetails: unknown;
  scopes: string[];
  dpopJkt: string | null;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  /** The successor's scopes when this rotation stored it (in this run or an earlier one whose answer was lost); null when it did not. */
  issuedScopes: string[] | null;
}

const PRESENTED = `
  r.id, r."authorizationId", r.scopes, r."dpopJkt", r."expiresAt", r."rotatedAt", r."revokedAt", r."familyId",
  a."applicationId", a.status::text AS status, a."userId", a."authTime", a.acr, a.amr, a."sessionId", a."authorizationDetails"`;

const read = statement<PresentedRefreshToken>(
  'refresh_token_read',
  `SELECT ${PRESENTED}, NULL::text[] AS "issuedScopes"
  FROM "RefreshToken" r JOIN "Authorization" a ON a.id = r."authorizationId" WHERE r."tokenHash" = $1`,
);

// One row per rotation asked for, in order: $1 presented hashes, $2 clients, $3 times, $4 proofs' key
// thumbprints, $5 narrowed scopes as JSON arrays (null: all), $6 successors' hashes, $7
// successors' bindings, $8 successors' expiries. The conditions of "granted" are the ones `refusal`
// in grants/refresh-token.ts checks, so a refusal can always say why. A presented hash appears at
// most once (CallGroups keys by it). A successor already stored under this call's own hash (random,
// one per call) means this rotation was committed by an earlier run whose answer was lost: it
// answers as rotated, not as a token someone else rotated. The presented rows are read locked, in
// id order (`presented`: the sort comes before the lock): two service replicas whose groups share
// tokens then wait for each other in one order instead of deadlocking, which would fail both groups
// back to one call at a time. A row a concurrent rotation changed while this one waited is read as
// that rotation left it.
const rotate = statement<PresentedRefreshToken & { n: string | null }>(
  'refresh_token_rotate_group',
  `WITH asked AS (
    SELECT i.*, CASE WHEN i.narrowed IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(i.narrowed::jsonb)) END AS scopes
    FROM unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
      WITH ORDINALITY AS i(presented_hash, application_id, at, jkt, narrowed, successor_hash, binding, expires_at, n)
  ), presented AS (
    SELECT i.n, ${PRESENTED}
    FROM asked i JOIN "RefreshToken" r ON r."tokenHash" = i.presented_hash JOIN "Authorization" a ON a.id = r."authorizationId"
    ORDER BY r.id FOR UPDATE OF r
  ), granted AS (
    SELECT p.*, i.at, i.successor_hash, i.binding, i.expires_at,
           ARRAY(SELECT s FROM unnest(p.scopes) WITH ORDINALITY AS u(s, k) WHERE i.scopes IS NULL OR s = ANY(i.scopes) ORDER BY k) AS successor
    FROM presented p JOIN asked i ON i.n = p.n
    WHERE p."applicationId" = i.application_id AND p.status IN ('approved', 'consumed') AND p."expiresAt" > i.at
      AND (p."dpopJkt" IS NULL OR p."dpopJkt" = i.jkt) AND (i.scopes IS NULL OR i.scopes <@ p.scopes)
  ), rotated AS (
    UPDATE "RefreshToken" t SET "rotatedAt" = g.at FROM granted g
    WHERE t.id = g.id AND t."rotatedAt" IS NULL AND t."revokedAt" IS NULL
    RETURNING t.id
  ), issued AS (
    INSERT INTO "RefreshToken" (id, "authorizationId", "familyId", "tokenHash", scopes, "dpopJkt", "expiresAt", "createdAt")
    SELECT gen_random_uuid(), g."authorizationId", g."familyId", g.successor_hash, g.successor, g.binding, g.expires_at, g.at
    FROM granted g WHERE g.id IN (SELECT id FROM rotated)
    RETURNING "tokenHash", scopes
  )
  SELECT p.*, COALESCE(
    (SELECT scopes FROM issued s WHERE s."tokenHash" = i.successor_hash),
    (SELECT scopes FROM "RefreshToken" s WHERE s."tokenHash" = i.successor_hash)
  ) AS "issuedScopes"
  FROM asked i LEFT JOIN presented p ON p.n = i.n ORDER BY i.n`,
);

export function readRefreshToken(sql: Sql, presentedHash: string): Promise<PresentedRefreshToken | undefined> {
  return sql.one(read, [presentedHash]);
}

export interface Rotation {
  presentedHash: string;
  applicationId: string;
  jkt: string | null;
  asked: string[] | null;
  tokenHash: string;
  binding: string | null;
  now: Date;
  expiresAt: Date;
}

/**
 * Refresh token rotation, durable in PostgreSQL: a presented token and its grant checked, the token
 * marked rotated and its successor stored, all or nothing. Rotations asked for while others are
 * being committed go together in one statement and one commit (CallGroups): the commit per refresh
 * was what bounded the grant's rate. The authorization's "last token issued" time is bookkeeping,
 * written in batches as the client user-token's is (`stamps`), not in the rotation.
 */
export class RefreshRotations {
  private readonly groups: CallGroups<Rotation, PresentedRefreshToken | undefined>;

  constructor(
    sql: Sql,
    private readonly stamps: TimestampBatch,
  ) {
    this.groups = new CallGroups(
      async (rotations) => {
        const column = <T>(of: (r: Rotation) => T) => rotations.map(of);
        const rows = await sql.rows(rotate, [
          column((r) => r.presentedHash),
          column((r) => r.applicationId),
          column((r) => r.now.toISOString()),
          column((r) => r.jkt),
          column((r) => (r.asked ? JSON.stringify(r.asked) : null)),
          column((r) => r.tokenHash),
          column((r) => r.binding),
          column((r) => r.expiresAt.toISOString()),
        ]);
        return rows.map(({ n: _n, ...row }) => (row.authorizationId === null ? undefined : row));
      },
      (r) => r.presentedHash,
    );
  }

  /** Rotates the presented token if it and its grant are good; always answers what was presented (if anything). */
  async rotate(rotation: Rotation): Promise<PresentedRefreshToken | undefined> {
    const row = await this.groups.call(rotation);
    if (row?.issuedScopes) this.stamps.record(row.authorizationId, rotation.now);
    return row;
  }
}
