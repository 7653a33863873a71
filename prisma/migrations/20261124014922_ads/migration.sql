-- CreateTable
CREATE TABLE "ad_campaigns" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "adAccountId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "clientRef" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "objective" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ad_campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_sets" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "clientRef" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "budgetType" TEXT NOT NULL,
    "budgetMinor" INTEGER NOT NULL,
    "startTime" TIMESTAMP(3),
    "endTime" TIMESTAMP(3),
    "targetCountries" TEXT[],
    "locationIds" TEXT[],
    "ageMin" INTEGER,
    "ageMax" INTEGER,
    "audienceId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ad_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ads" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "clientRef" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "copyVariantId" TEXT,
    "headline" TEXT,
    "primaryText" TEXT,
    "description" TEXT,
    "callToAction" TEXT NOT NULL,
    "landingUrl" TEXT NOT NULL,
    "leadFormId" TEXT,
    "draftId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_drafts" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "adSetId" TEXT,
    "creativeId" TEXT NOT NULL,
    "copyVariantId" TEXT,
    "callToAction" TEXT NOT NULL,
    "landingUrl" TEXT NOT NULL,
    "adId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_accounts" (
    "externalAccountId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "currency" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "offsetSeconds" INTEGER NOT NULL DEFAULT 0,
    "deliveredThrough" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_accounts_pkey" PRIMARY KEY ("externalAccountId")
);

-- CreateTable
CREATE TABLE "sandbox_campaigns" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "objective" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_ad_sets" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "budgetType" TEXT NOT NULL,
    "budgetMinor" INTEGER NOT NULL,
    "startTime" TIMESTAMP(3),
    "endTime" TIMESTAMP(3),
    "targeting" JSONB NOT NULL,
    "audienceId" TEXT,
    "audienceSize" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_ad_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_ads" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "mediaId" TEXT NOT NULL,
    "mediaKind" TEXT NOT NULL,
    "headline" TEXT,
    "primaryText" TEXT,
    "description" TEXT,
    "callToAction" TEXT NOT NULL,
    "landingUrl" TEXT NOT NULL,
    "leadFormId" TEXT,
    "quality" DOUBLE PRECISION NOT NULL,
    "impressions" BIGINT NOT NULL DEFAULT 0,
    "reach" INTEGER NOT NULL DEFAULT 0,
    "spendMinor" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_ads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_ad_days" (
    "adId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "impressions" INTEGER NOT NULL DEFAULT 0,
    "reach" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "spendMinor" INTEGER NOT NULL DEFAULT 0,
    "conversions" INTEGER NOT NULL DEFAULT 0,
    "valueMinor" INTEGER NOT NULL DEFAULT 0,
    "frequency" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "sandbox_ad_days_pkey" PRIMARY KEY ("adId","date")
);

-- CreateTable
CREATE TABLE "sandbox_comments" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "adId" TEXT NOT NULL,
    "authorName" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_leads" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "adId" TEXT,
    "fields" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_leads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ad_campaigns_workspaceId_platform_createdAt_id_idx" ON "ad_campaigns"("workspaceId", "platform", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ad_campaigns_workspaceId_clientRef_key" ON "ad_campaigns"("workspaceId", "clientRef");

-- CreateIndex
CREATE INDEX "ad_sets_workspaceId_createdAt_id_idx" ON "ad_sets"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ad_sets_campaignId_createdAt_id_idx" ON "ad_sets"("campaignId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ad_sets_workspaceId_clientRef_key" ON "ad_sets"("workspaceId", "clientRef");

-- CreateIndex
CREATE INDEX "ads_workspaceId_createdAt_id_idx" ON "ads"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ads_adSetId_createdAt_id_idx" ON "ads"("adSetId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ads_workspaceId_creativeId_idx" ON "ads"("workspaceId", "creativeId");

-- CreateIndex
CREATE UNIQUE INDEX "ads_workspaceId_clientRef_key" ON "ads"("workspaceId", "clientRef");

-- CreateIndex
CREATE INDEX "ad_drafts_workspaceId_createdAt_id_idx" ON "ad_drafts"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_accounts_workspaceId_platform_key" ON "sandbox_accounts"("workspaceId", "platform");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_campaigns_accountId_clientRef_key" ON "sandbox_campaigns"("accountId", "clientRef");

-- CreateIndex
CREATE INDEX "sandbox_ad_sets_campaignId_idx" ON "sandbox_ad_sets"("campaignId");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_ad_sets_accountId_clientRef_key" ON "sandbox_ad_sets"("accountId", "clientRef");

-- CreateIndex
CREATE INDEX "sandbox_ads_accountId_status_idx" ON "sandbox_ads"("accountId", "status");

-- CreateIndex
CREATE INDEX "sandbox_ads_adSetId_idx" ON "sandbox_ads"("adSetId");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_ads_accountId_clientRef_key" ON "sandbox_ads"("accountId", "clientRef");

-- CreateIndex
CREATE INDEX "sandbox_ad_days_accountId_date_idx" ON "sandbox_ad_days"("accountId", "date");

-- CreateIndex
CREATE INDEX "sandbox_ad_days_adSetId_date_idx" ON "sandbox_ad_days"("adSetId", "date");

-- CreateIndex
CREATE INDEX "sandbox_comments_accountId_createdAt_idx" ON "sandbox_comments"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "sandbox_leads_formId_createdAt_idx" ON "sandbox_leads"("formId", "createdAt");
