-- RFC 9126 §6 (issue #28): a client may be registered as pushing every authorization request (PAR).
ALTER TABLE "Application" ADD COLUMN "requiresPushedAuthorization" BOOLEAN NOT NULL DEFAULT false;
