-- What a request asks of the person's sign-in (OpenID Connect prompt, max_age, acr_values, an
-- essential acr claim), an application's defaults for it, and what its tokens need to read
-- sensitive presets (RFC 9470 step-up).
ALTER TABLE "Authorization" ADD COLUMN "prompt" TEXT[] DEFAULT ARRAY[]::TEXT[],
    ADD COLUMN "maxAge" INTEGER,
    ADD COLUMN "acrValues" TEXT[] DEFAULT ARRAY[]::TEXT[],
    ADD COLUMN "acrEssential" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "Application" ADD COLUMN "defaultAcrValues" TEXT[] DEFAULT ARRAY[]::TEXT[],
    ADD COLUMN "defaultMaxAge" INTEGER,
    ADD COLUMN "sensitiveDataAcr" TEXT,
    ADD COLUMN "sensitiveDataMaxAge" INTEGER;
ALTER TABLE "Application" ADD CONSTRAINT "Application_sensitiveDataAcr_check" CHECK ("sensitiveDataAcr" IN ('pwd', 'phr', 'phrh'));
