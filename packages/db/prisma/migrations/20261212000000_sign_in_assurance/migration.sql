-- How a person signed in (OpenID Connect acr, RFC 8176 amr): kept on the session, and on the
-- authorization the session approved, whose tokens carry them. Sessions made before are passwords.
ALTER TABLE "Session" ADD COLUMN "acr" TEXT NOT NULL DEFAULT 'pwd',
    ADD COLUMN "amr" TEXT[] DEFAULT ARRAY['pwd']::TEXT[];
ALTER TABLE "Session" ADD CONSTRAINT "Session_acr_check" CHECK ("acr" IN ('pwd', 'phr', 'phrh'));

ALTER TABLE "Authorization" ADD COLUMN "acr" TEXT,
    ADD COLUMN "amr" TEXT[] DEFAULT ARRAY[]::TEXT[];
