-- A client's token for itself (client_credentials, issue #28) belongs to no authorization; when
-- it is revoked, its row names none.
ALTER TABLE "RevokedAccessToken" ALTER COLUMN "authorizationId" DROP NOT NULL;
