-- A self-made account (open sign-up, or joining by invitation) proves its address before it exists:
-- the sign-up waits here, its password already hashed, until the link mailed to it is followed.
-- Accounts made that way are marked, so operators never attach verified data to one by email alone.
ALTER TABLE "User" ADD COLUMN "selfRegistered" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "PendingSignup" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "organizationName" TEXT,
    "invitationId" UUID,
    "failedAttempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PendingSignup_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "PendingSignup_tokenHash_key" ON "PendingSignup"("tokenHash");
CREATE INDEX "PendingSignup_email_idx" ON "PendingSignup"("email");
CREATE INDEX "PendingSignup_expiresAt_idx" ON "PendingSignup"("expiresAt");
ALTER TABLE "PendingSignup" ADD CONSTRAINT "PendingSignup_invitationId_fkey" FOREIGN KEY ("invitationId") REFERENCES "Invitation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
