-- Mail a local deployment keeps instead of sending (no SMTP_URL): read on the identity provider's
-- /dev/outbox page. Never written where mail goes out through SMTP.
CREATE TABLE "LocalMail" (
    "id" UUID NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LocalMail_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "LocalMail_to_createdAt_idx" ON "LocalMail"("to", "createdAt");
CREATE INDEX "LocalMail_createdAt_idx" ON "LocalMail"("createdAt");
