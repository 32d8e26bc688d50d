-- OpenID4VCI (issue #30): SD-JWT VCs beside bbs-2023 ones, their Token Status Lists, and credential offers.
ALTER TABLE "IssuedCredential" ADD COLUMN "format" TEXT NOT NULL DEFAULT 'ldp_vc';
ALTER TABLE "StatusList" ADD COLUMN "format" TEXT NOT NULL DEFAULT 'bitstring';

CREATE TABLE "CredentialOffer" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "apiKeyId" UUID NOT NULL,
    "configurationId" TEXT NOT NULL,
    "claims" JSONB NOT NULL,
    "subjectAddress" TEXT,
    "handleHash" TEXT NOT NULL,
    "preAuthorizedCodeHash" TEXT NOT NULL,
    "txCodeHash" TEXT,
    "txCodeAttempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "redeemedAt" TIMESTAMPTZ(3),
    "accessTokenHash" TEXT,
    "accessTokenExpiresAt" TIMESTAMPTZ(3),
    "credentialId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CredentialOffer_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "CredentialOffer_handleHash_key" ON "CredentialOffer"("handleHash");
CREATE UNIQUE INDEX "CredentialOffer_preAuthorizedCodeHash_key" ON "CredentialOffer"("preAuthorizedCodeHash");
CREATE UNIQUE INDEX "CredentialOffer_accessTokenHash_key" ON "CredentialOffer"("accessTokenHash");
CREATE INDEX "CredentialOffer_expiresAt_idx" ON "CredentialOffer"("expiresAt");
