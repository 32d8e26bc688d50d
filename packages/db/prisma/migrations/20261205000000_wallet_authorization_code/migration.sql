-- OpenID4VCI's authorization code flow (issue #30): the credentials a person approved for their
-- wallet at the identity provider (RFC 9396 authorization details), and credentials the issuer
-- signs on such an approval, which no API key asked for.
ALTER TABLE "Authorization" ADD COLUMN "authorizationDetails" JSONB;
ALTER TABLE "IssuedCredential" ALTER COLUMN "apiKeyId" DROP NOT NULL;
-- RFC 9449: the key an offer's access token is bound to, when the wallet sent a DPoP proof to /token.
ALTER TABLE "CredentialOffer" ADD COLUMN "dpopJkt" TEXT;
-- A credential issued on a person's approval at the identity provider: `<authorization id>#<configuration id>`,
-- one credential per approval and configuration.
ALTER TABLE "IssuedCredential" ADD COLUMN "approval" TEXT;
CREATE UNIQUE INDEX "IssuedCredential_approval_key" ON "IssuedCredential"("approval");
