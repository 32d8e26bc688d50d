-- The user-token lookup (the latest active authorization of a client and user) is cached on each
-- identity-provider replica too. Besides a:<authorization id>, every authorization that is created
-- or whose status, scopes or owner change now also announces g:<application id>:<user id>, so a
-- newer authorization of the same client and user replaces the cached one at once.

CREATE OR REPLACE FUNCTION "svc_grants_authorization"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('svc_grants', 'a:' || OLD."id"::text);
    IF OLD."userId" IS NOT NULL THEN
      PERFORM pg_notify('svc_grants', 'g:' || OLD."applicationId"::text || ':' || OLD."userId"::text);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."userId" IS NOT NULL THEN
    PERFORM pg_notify('svc_grants', 'g:' || NEW."applicationId"::text || ':' || NEW."userId"::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Authorization_grants_insert" AFTER INSERT ON "Authorization"
  FOR EACH ROW EXECUTE FUNCTION "svc_grants_authorization"();
