-- CreateTable
CREATE TABLE "ad_daily_insights" (
    "adId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "creativeId" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "impressions" INTEGER NOT NULL,
    "reach" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL,
    "spendMinor" INTEGER NOT NULL,
    "conversions" INTEGER NOT NULL,
    "conversionValueMinor" INTEGER NOT NULL,
    "frequency" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "ad_daily_insights_pkey" PRIMARY KEY ("adId","date")
);

-- CreateTable
CREATE TABLE "performance_cursors" (
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "resumeFrom" TEXT NOT NULL,
    "today" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "lastRunAt" TIMESTAMP(3) NOT NULL,
    "lastError" TEXT,

    CONSTRAINT "performance_cursors_pkey" PRIMARY KEY ("workspaceId","platform")
);

-- CreateTable
CREATE TABLE "performance_settings" (
    "workspaceId" TEXT NOT NULL,
    "goal" TEXT NOT NULL DEFAULT 'cpa',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "performance_settings_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateTable
CREATE TABLE "creative_performance" (
    "creativeId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "impressions" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL,
    "spendMinor" INTEGER NOT NULL,
    "conversions" INTEGER NOT NULL,
    "conversionValueMinor" INTEGER NOT NULL,
    "ctr" DOUBLE PRECISION,
    "cpa" DOUBLE PRECISION,
    "roas" DOUBLE PRECISION,
    "frequency" DOUBLE PRECISION,
    "recentCtr" DOUBLE PRECISION,
    "earlierCtr" DOUBLE PRECISION,
    "label" TEXT NOT NULL DEFAULT 'neutral',
    "reason" TEXT NOT NULL,
    "labelVersion" INTEGER NOT NULL DEFAULT 0,
    "labelChangedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "creative_performance_pkey" PRIMARY KEY ("creativeId")
);

-- CreateTable
CREATE TABLE "creative_label_changes" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "labelVersion" INTEGER NOT NULL,
    "previousLabel" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "eventId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "creative_label_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "creative_tests" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "creativeIds" TEXT[],
    "minSample" INTEGER NOT NULL,
    "maxDays" INTEGER NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL DEFAULT 0.95,
    "pauseLosers" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'running',
    "outcome" TEXT,
    "winnerCreativeId" TEXT,
    "result" JSONB,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startDate" TEXT NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "eventId" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "creative_tests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ad_daily_insights_workspaceId_date_idx" ON "ad_daily_insights"("workspaceId", "date");

-- CreateIndex
CREATE INDEX "ad_daily_insights_adSetId_date_idx" ON "ad_daily_insights"("adSetId", "date");

-- CreateIndex
CREATE INDEX "creative_performance_workspaceId_label_idx" ON "creative_performance"("workspaceId", "label");

-- CreateIndex
CREATE INDEX "creative_label_changes_workspaceId_eventId_idx" ON "creative_label_changes"("workspaceId", "eventId");

-- CreateIndex
CREATE UNIQUE INDEX "creative_label_changes_creativeId_labelVersion_key" ON "creative_label_changes"("creativeId", "labelVersion");

-- CreateIndex
CREATE INDEX "creative_tests_workspaceId_createdAt_id_idx" ON "creative_tests"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "creative_tests_status_idx" ON "creative_tests"("status");
