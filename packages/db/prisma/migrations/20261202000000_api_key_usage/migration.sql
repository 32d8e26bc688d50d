-- API key usage per hour (issue #27): wallet verify and the credential issuer count each request
-- with a known active key, in batches; the developer console shows this hour's count.
CREATE TABLE "ApiKeyUsage" (
    "apiKeyId" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,
    CONSTRAINT "ApiKeyUsage_pkey" PRIMARY KEY ("apiKeyId", "hour")
);
ALTER TABLE "ApiKeyUsage" ADD CONSTRAINT "ApiKeyUsage_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "ApiKeyUsage_hour_idx" ON "ApiKeyUsage"("hour");
