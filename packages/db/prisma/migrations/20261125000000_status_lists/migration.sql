-- Bitstring Status Lists (W3C): each credential issued with a BitstringStatusListEntry holds one
-- index in one list of its issuer DID; revoking it bumps the list's version so every replica
-- signs and serves the list anew.

-- CreateTable
CREATE TABLE "StatusList" (
    "id" UUID NOT NULL,
    "issuerDid" TEXT NOT NULL,
    "statusPurpose" TEXT NOT NULL DEFAULT 'revocation',
    "length" INTEGER NOT NULL,
    "allocated" INTEGER NOT NULL DEFAULT 0,
    "permutationKey" BYTEA NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "signedVersion" INTEGER,
    "signed" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StatusList_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StatusList_issuerDid_createdAt_idx" ON "StatusList"("issuerDid", "createdAt");

-- AlterTable
ALTER TABLE "IssuedCredential" ADD COLUMN "statusListId" UUID,
ADD COLUMN "statusListIndex" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "IssuedCredential_statusListId_statusListIndex_key" ON "IssuedCredential"("statusListId", "statusListIndex");

-- AddForeignKey
ALTER TABLE "IssuedCredential" ADD CONSTRAINT "IssuedCredential_statusListId_fkey" FOREIGN KEY ("statusListId") REFERENCES "StatusList"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
