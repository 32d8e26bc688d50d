-- Security review: DPoP-bound tokens (RFC 9449), private_key_jwt clients (RFC 7523), and every
-- issued credential recorded under the id it was signed with, unique per organization.

-- AlterTable
ALTER TABLE "Application" ADD COLUMN "requiresDpop" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "jwks" JSONB,
ADD COLUMN "jwksUri" TEXT;

-- AlterTable
ALTER TABLE "RefreshToken" ADD COLUMN "dpopJkt" TEXT;

-- AlterTable: credentials issued before this migration were signed with "urn:uuid:<id>".
ALTER TABLE "IssuedCredential" ADD COLUMN "credentialId" TEXT;
UPDATE "IssuedCredential" SET "credentialId" = 'urn:uuid:' || "id"::text;
ALTER TABLE "IssuedCredential" ALTER COLUMN "credentialId" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "IssuedCredential_organizationId_credentialId_key" ON "IssuedCredential"("organizationId", "credentialId");
