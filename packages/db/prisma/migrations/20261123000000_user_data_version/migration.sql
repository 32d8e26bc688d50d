-- Preset cache stamp: every change to what presets read from a user (the user record's palm
-- fields and service id, wallets, credentials) bumps "dataVersion" in the same transaction, so a
-- cache entry stamped with an older version is never served, whichever process made the change.

-- AlterTable
ALTER TABLE "User" ADD COLUMN "dataVersion" BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION "user_data_version_on_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW."palmVerified", NEW."palmVerifiedAt", NEW."serviceId", NEW."createdAt")
     IS DISTINCT FROM (OLD."palmVerified", OLD."palmVerifiedAt", OLD."serviceId", OLD."createdAt") THEN
    NEW."dataVersion" := OLD."dataVersion" + 1;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "User_data_version" BEFORE UPDATE ON "User"
  FOR EACH ROW EXECUTE FUNCTION "user_data_version_on_user"();

CREATE FUNCTION "user_data_version_on_child"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE "id" = OLD."userId";
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."userId" IS DISTINCT FROM OLD."userId") THEN
    UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE "id" = NEW."userId";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "UserCredential_data_version" AFTER INSERT OR UPDATE OR DELETE ON "UserCredential"
  FOR EACH ROW EXECUTE FUNCTION "user_data_version_on_child"();

CREATE TRIGGER "Wallet_data_version" AFTER INSERT OR UPDATE OR DELETE ON "Wallet"
  FOR EACH ROW EXECUTE FUNCTION "user_data_version_on_child"();
