import { type Sql, statement } from '@svc/db';

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
  /** The successor's scopes when this statement rotated the token; null when it did not. */
  issuedScopes: string[] | null;
}

const PRESENTED = `
  SELECT r.id, r."authorizationId", r.scopes, r."dpopJkt", r."expiresAt", r."rotatedAt", r."revokedAt", r."familyId",
         a."applicationId", a.status::text AS status, a."userId", a."authTime", a.acr, a.amr, a."sessionId", a."authorizationDetails"
  FROM "RefreshToken" r JOIN "Authorization" a ON a.id = r."authorizationId"
  WHERE r."tokenHash" = $1`;

const read = statement<PresentedRefreshToken>('refresh_token_read', `SELECT *, NULL::text[] AS "issuedScopes" FROM (${PRESENTED}) p`);

// $1 presented hash, $2 client, $3 now, $4 proof's key thumbprint, $5 narrowed scopes (null: all),
// $6 successor's hash, $7 successor's binding, $8 successor's expiry. The conditions of "granted"
// are the ones `refusal` in tokens.ts checks, so a refusal can always say why.
const rotate = statement<PresentedRefreshToken>(
  'refresh_token_rotate',
  `WITH presented AS (${PRESENTED}
  ), granted AS (
    SELECT p.*, ARRAY(SELECT s FROM unnest(p.scopes) WITH ORDINALITY AS u(s, i) WHERE $5::text[] IS NULL OR s = ANY($5::text[]) ORDER BY i) AS successor
    FROM presented p
    WHERE p."applicationId" = $2::uuid AND p.status IN ('approved', 'consumed') AND p."expiresAt" > $3::timestamptz
      AND (p."dpopJkt" IS NULL OR p."dpopJkt" = $4::text) AND ($5::text[] IS NULL OR $5::text[] <@ p.scopes)
  ), rotated AS (
    UPDATE "RefreshToken" t SET "rotatedAt" = $3::timestamptz FROM granted g
    WHERE t.id = g.id AND t."rotatedAt" IS NULL AND t."revokedAt" IS NULL
    RETURNING t.id
  ), issued AS (
    INSERT INTO "RefreshToken" (id, "authorizationId", "familyId", "tokenHash", scopes, "dpopJkt", "expiresAt", "createdAt")
    SELECT gen_random_uuid(), g."authorizationId", g."familyId", $6, g.successor, $7::text, $8::timestamptz, $3::timestamptz
    FROM granted g WHERE EXISTS (SELECT 1 FROM rotated)
    RETURNING scopes
  ), stamped AS (
    UPDATE "Authorization" SET "lastTokenIssuedAt" = $3::timestamptz
    WHERE id = (SELECT "authorizationId" FROM granted) AND EXISTS (SELECT 1 FROM rotated)
    RETURNING id
  )
  SELECT p.*, (SELECT scopes FROM issued) AS "issuedScopes" FROM presented p`,
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

/** Rotates the presented token if it and its grant are good; always answers what was presented (if anything). */
export function rotateRefreshToken(sql: Sql, r: Rotation): Promise<PresentedRefreshToken | undefined> {
  return sql.one(rotate, [r.presentedHash, r.applicationId, r.now.toISOString(), r.jkt, r.asked, r.tokenHash, r.binding, r.expiresAt.toISOString()]);
}
