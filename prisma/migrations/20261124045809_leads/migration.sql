-- CreateTable
CREATE TABLE "lead_forms" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "adAccountId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "questions" TEXT[],
    "status" TEXT NOT NULL,
    "cursorAt" TIMESTAMP(3),
    "cursorExternalId" TEXT,
    "leadCount" INTEGER NOT NULL DEFAULT 0,
    "lastPolledAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "lead_forms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "adExternalId" TEXT,
    "adId" TEXT,
    "adName" TEXT,
    "fields" JSONB NOT NULL,
    "submittedAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "lead_forms_workspaceId_createdAt_id_idx" ON "lead_forms"("workspaceId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "lead_forms_adAccountId_externalId_key" ON "lead_forms"("adAccountId", "externalId");

-- CreateIndex
CREATE INDEX "leads_workspaceId_submittedAt_id_idx" ON "leads"("workspaceId", "submittedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "leads_formId_submittedAt_id_idx" ON "leads"("formId", "submittedAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "leads_formId_externalId_key" ON "leads"("formId", "externalId");
