-- One human, one action: an organization's actions, and the proofs of them counted per nullifier.
CREATE TABLE "Action" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "maxPerPerson" INTEGER NOT NULL DEFAULT 1,
    "period" TEXT NOT NULL DEFAULT 'never',
    "requiresPalmVerification" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Action_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Action_maxPerPerson_check" CHECK ("maxPerPerson" >= 1),
    CONSTRAINT "Action_period_check" CHECK ("period" IN ('day', 'week', 'month', 'never'))
);

CREATE UNIQUE INDEX "Action_organizationId_name_key" ON "Action"("organizationId", "name");

ALTER TABLE "Action" ADD CONSTRAINT "Action_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Nothing of the person: the nullifier alone says whose count it is, and only to this service.
CREATE TABLE "ActionProof" (
    "actionId" UUID NOT NULL,
    "nullifier" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "signalHash" TEXT,
    "provedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ActionProof_pkey" PRIMARY KEY ("actionId", "nullifier")
);

ALTER TABLE "ActionProof" ADD CONSTRAINT "ActionProof_actionId_fkey" FOREIGN KEY ("actionId") REFERENCES "Action"("id") ON DELETE CASCADE ON UPDATE CASCADE;
