-- An mdoc carries no id or status reference: the digest of its issuer signature is how a presented mdoc finds its record.
ALTER TABLE "IssuedCredential" ADD COLUMN "signatureDigest" TEXT;
CREATE UNIQUE INDEX "IssuedCredential_signatureDigest_key" ON "IssuedCredential"("signatureDigest");
