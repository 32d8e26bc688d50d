-- Webhooks (issue #29): an organization's endpoints, the outbox of events every service writes in
-- the same transaction as the change that causes it, and one delivery per event and endpoint.
CREATE TABLE "WebhookEndpoint" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    -- The signing secret, sealed with the identity provider's key-encryption key (never stored in the clear).
    "secret" JSONB NOT NULL,
    -- During a rotation: the secret before, signed with beside the new one until "previousSecretUntil".
    "previousSecret" JSONB,
    "previousSecretUntil" TIMESTAMPTZ(3),
    -- When the current run of failed attempts began (cleared by a success): five days disable the endpoint.
    "failingSince" TIMESTAMPTZ(3),
    -- One replica delivers to an endpoint at a time, until this lease ends.
    "leaseUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "WebhookEndpoint_organizationId_idx" ON "WebhookEndpoint"("organizationId");

CREATE TABLE "WebhookEvent" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organizationId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- A test event goes to this endpoint only; every other event to each endpoint that asked for its type.
    "endpointId" UUID,
    -- What the event is about (an authorization's id, a credential's): one endpoint never gets a
    -- subject's later event while an earlier one is still pending for it.
    "subject" TEXT,
    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "WebhookEvent" ADD CONSTRAINT "WebhookEvent_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "WebhookEvent_occurredAt_idx" ON "WebhookEvent"("occurredAt");
-- An API key's limit is announced once per window, whichever replica is first.
CREATE UNIQUE INDEX "WebhookEvent_limit_once_idx" ON "WebhookEvent"("type", "subject") WHERE "type" = 'api_key.limit_reached';

CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "endpointId" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "eventOccurredAt" TIMESTAMPTZ(3) NOT NULL,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAttemptAt" TIMESTAMPTZ(3),
    "lastResponseStatus" INTEGER,
    "lastResponseMs" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "WebhookDelivery_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed'))
);
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "WebhookDelivery_endpointId_eventId_key" ON "WebhookDelivery"("endpointId", "eventId");
-- What a deliverer looks for: an endpoint's due deliveries, oldest event first; and the oldest due one of all.
CREATE INDEX "WebhookDelivery_due_idx" ON "WebhookDelivery"("endpointId", "eventOccurredAt") WHERE "status" = 'pending';
CREATE INDEX "WebhookDelivery_next_attempt_idx" ON "WebhookDelivery"("nextAttemptAt") WHERE "status" = 'pending';
CREATE INDEX "WebhookDelivery_endpointId_createdAt_idx" ON "WebhookDelivery"("endpointId", "createdAt");

-- Fan-out in the writer's transaction: an event becomes one delivery per enabled endpoint of its
-- organization that asked for its type (a test event: its one endpoint), and the deliverers are
-- woken. SECURITY DEFINER: a service that may only insert events needs no right on endpoints or
-- deliveries for this. Every name is schema-qualified and pg_temp is searched last, so a caller's
-- temporary objects can never stand in for these tables under the owner's rights.
CREATE FUNCTION "webhook_event_fan_out"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO public."WebhookDelivery" ("endpointId", "eventId", "eventOccurredAt")
  SELECT e."id", NEW."id", NEW."occurredAt" FROM public."WebhookEndpoint" e
  WHERE e."organizationId" = NEW."organizationId" AND e."enabled"
    AND (CASE WHEN NEW."endpointId" IS NULL THEN NEW."type" = ANY (e."events") ELSE e."id" = NEW."endpointId" END);
  IF FOUND THEN
    PERFORM pg_catalog.pg_notify('svc_webhooks', NEW."organizationId"::text);
  END IF;
  RETURN NULL;
END;
$$;
REVOKE ALL ON FUNCTION "webhook_event_fan_out"() FROM PUBLIC;
CREATE TRIGGER "WebhookEvent_fan_out" AFTER INSERT ON "WebhookEvent" FOR EACH ROW EXECUTE FUNCTION "webhook_event_fan_out"();

-- authorization.data_window_ended is written once per authorization, when its window is over.
ALTER TABLE "Authorization" ADD COLUMN "dataWindowEventAt" TIMESTAMPTZ(3);
CREATE INDEX "Authorization_data_window_due_idx" ON "Authorization"("approvedAt")
  WHERE "dataWindowEventAt" IS NULL AND "status" IN ('approved', 'consumed');
