-- Logout (issue #28): the session an authorization was approved in (an id_token's sid, and whom a
-- session's end is told), and where a client's users return after signing out and where it is told
-- of a session's end (OpenID Connect RP-Initiated and Back-Channel Logout 1.0).
ALTER TABLE "Authorization" ADD COLUMN "sessionId" UUID;
CREATE INDEX "Authorization_sessionId_idx" ON "Authorization"("sessionId");
ALTER TABLE "Application" ADD COLUMN "postLogoutRedirectUris" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "Application" ADD COLUMN "backchannelLogoutUri" TEXT;
