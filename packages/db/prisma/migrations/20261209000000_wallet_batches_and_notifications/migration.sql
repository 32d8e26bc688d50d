-- Batch issuance (OpenID4VCI 1.0 batch_credential_issuance): each copy of a batch is a record of its
-- own (its own jti and status entry, so the copies are unlinkable), pointing at the batch's first,
-- which is what GET /credentials lists and what revokes them all.
ALTER TABLE "IssuedCredential" ADD COLUMN "batchOf" UUID;
CREATE INDEX "IssuedCredential_batchOf_idx" ON "IssuedCredential"("batchOf");

-- The notification endpoint: the id a wallet's notifications name, and the latest one it sent.
ALTER TABLE "IssuedCredential" ADD COLUMN "notificationId" TEXT;
ALTER TABLE "IssuedCredential" ADD COLUMN "walletEvent" TEXT;
ALTER TABLE "IssuedCredential" ADD COLUMN "walletEventAt" TIMESTAMPTZ(3);
CREATE UNIQUE INDEX "IssuedCredential_notificationId_key" ON "IssuedCredential"("notificationId");
