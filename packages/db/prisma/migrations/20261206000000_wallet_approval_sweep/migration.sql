-- The wallet approval sweep (apps/credential-issuer/src/wallets/approvals/approval-sweep.ts) pages
-- through the approvals behind an issuer's live credentials in order of their authorization id, the
-- part of `approval` before '#', and then reads the live credentials of each approval that ended.
-- Without this index each page of fifty scanned every live credential of the issuer: a sweep grew
-- with the square of their number. Only live credentials of an approval are in it.
CREATE INDEX "IssuedCredential_live_approval_idx" ON "IssuedCredential" ("organizationId", (split_part("approval", '#', 1)))
  WHERE "approval" IS NOT NULL AND "revokedAt" IS NULL;
