-- OpenID4VP presentation requests: what an integrator asked of a wallet, and the result.
CREATE TABLE "PresentationRequest" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "apiKeyId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "query" JSONB NOT NULL,
    "nonce" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "responseKey" JSONB NOT NULL,
    "result" JSONB,
    "failedAnswers" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "answeredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PresentationRequest_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "PresentationRequest_organizationId_createdAt_idx" ON "PresentationRequest"("organizationId", "createdAt");
CREATE INDEX "PresentationRequest_expiresAt_idx" ON "PresentationRequest"("expiresAt");
