-- Integrators serve themselves (issue #27): developer invitations, personal access tokens, RFC 7591
-- initial access tokens and RFC 7592 registration access tokens, and sandbox test users owned by
-- the organization that made them.

ALTER TABLE "User" ADD COLUMN "testUserOfOrganizationId" UUID;
ALTER TABLE "User" ADD CONSTRAINT "User_testUserOfOrganizationId_fkey" FOREIGN KEY ("testUserOfOrganizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "User_testUserOfOrganizationId_idx" ON "User"("testUserOfOrganizationId");

ALTER TABLE "Application" ADD COLUMN "registrationTokenHash" TEXT;
ALTER TABLE "Application" ADD COLUMN "tokenEndpointAuthMethod" TEXT;
CREATE UNIQUE INDEX "Application_registrationTokenHash_key" ON "Application"("registrationTokenHash");

CREATE TABLE "Invitation" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "invitedByUserId" UUID,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "acceptedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Invitation_organizationId_email_key" ON "Invitation"("organizationId", "email");
CREATE INDEX "Invitation_email_idx" ON "Invitation"("email");
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "PersonalAccessToken" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3),
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PersonalAccessToken_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "PersonalAccessToken_tokenHash_key" ON "PersonalAccessToken"("tokenHash");
CREATE INDEX "PersonalAccessToken_organizationId_idx" ON "PersonalAccessToken"("organizationId");
ALTER TABLE "PersonalAccessToken" ADD CONSTRAINT "PersonalAccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "PersonalAccessToken" ADD CONSTRAINT "PersonalAccessToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "InitialAccessToken" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdByUserId" UUID,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "InitialAccessToken_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "InitialAccessToken_tokenHash_key" ON "InitialAccessToken"("tokenHash");
CREATE INDEX "InitialAccessToken_organizationId_idx" ON "InitialAccessToken"("organizationId");
ALTER TABLE "InitialAccessToken" ADD CONSTRAINT "InitialAccessToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
