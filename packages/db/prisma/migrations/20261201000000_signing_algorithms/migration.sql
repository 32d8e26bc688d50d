-- Per-client signing (issue #28): what the server signs for a client (RS256 unless it registered
-- PS256), and the FAPI 2.0 profile that a client may be put under.
ALTER TABLE "Application" ADD COLUMN "idTokenSignedResponseAlg" TEXT;
ALTER TABLE "Application" ADD COLUMN "introspectionSignedResponseAlg" TEXT;
ALTER TABLE "Application" ADD COLUMN "fapiProfile" TEXT;
