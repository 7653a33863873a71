-- CreateEnum
CREATE TYPE "AiUsageStatus" AS ENUM ('reserved', 'captured', 'released');

-- CreateTable
CREATE TABLE "ai_settings" (
    "workspaceId" TEXT NOT NULL,
    "brandVoice" TEXT,
    "namingConvention" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ai_settings_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateTable
CREATE TABLE "ai_credit_grants" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "credits" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_credit_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ai_usages" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "feature" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "status" "AiUsageStatus" NOT NULL DEFAULT 'reserved',
    "reservedCredits" INTEGER NOT NULL,
    "chargedCredits" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" TIMESTAMP(3),

    CONSTRAINT "ai_usages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ai_credit_grants_workspaceId_createdAt_idx" ON "ai_credit_grants"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "ai_usages_workspaceId_createdAt_id_idx" ON "ai_usages"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ai_usages_status_createdAt_idx" ON "ai_usages"("status", "createdAt");

-- Hand-written below: the ledger starts from what each workspace holds today.
INSERT INTO "ai_credit_grants" ("id", "workspaceId", "credits", "reason")
  SELECT 'grant_opening_' || "id", "id", "credits", 'opening balance' FROM "workspaces" WHERE "credits" > 0;

