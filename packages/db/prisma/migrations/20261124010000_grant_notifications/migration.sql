-- Grant cache invalidation: every change that can make a cached bearer grant wrong is announced on
-- the channel "svc_grants" when its transaction commits, so each identity-provider replica drops
-- what changed. Payloads: a:<authorization id>, c:<application id>, u:<user id>, t:<revoked jti>.
-- Token stamps (lastTokenIssuedAt) are not announced: no grant depends on them.

CREATE FUNCTION "svc_grants_authorization"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_grants', 'a:' || OLD."id"::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "Authorization_grants_update" AFTER UPDATE OF "status", "grantedScopes", "approvedAt", "userId", "applicationId" ON "Authorization"
  FOR EACH ROW EXECUTE FUNCTION "svc_grants_authorization"();
CREATE TRIGGER "Authorization_grants_delete" AFTER DELETE ON "Authorization"
  FOR EACH ROW EXECUTE FUNCTION "svc_grants_authorization"();

CREATE FUNCTION "svc_grants_application"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_grants', 'c:' || OLD."id"::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "Application_grants" AFTER UPDATE OR DELETE ON "Application"
  FOR EACH ROW EXECUTE FUNCTION "svc_grants_application"();

-- Any change to a user (palm status, wallets and credentials through "dataVersion", email, ...):
-- what user info shows and the preset cache stamp come from here.
CREATE FUNCTION "svc_grants_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_grants', 'u:' || OLD."id"::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "User_grants" AFTER UPDATE OR DELETE ON "User"
  FOR EACH ROW EXECUTE FUNCTION "svc_grants_user"();

CREATE FUNCTION "svc_grants_revoked_token"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_grants', 't:' || NEW."jti");
  RETURN NULL;
END
$$;

CREATE TRIGGER "RevokedAccessToken_grants" AFTER INSERT ON "RevokedAccessToken"
  FOR EACH ROW EXECUTE FUNCTION "svc_grants_revoked_token"();
