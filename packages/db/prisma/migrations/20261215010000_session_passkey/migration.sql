-- The passkey a session was signed in with, so that deleting the passkey (lost, or in someone
-- else's hands) ends the sessions it opened. No foreign key: the id outlives the passkey, and the
-- delete ends those sessions itself, in its own transaction (found through the userId index).
ALTER TABLE "Session" ADD COLUMN "passkeyId" UUID;
