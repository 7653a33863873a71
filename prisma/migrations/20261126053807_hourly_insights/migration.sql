-- CreateTable
CREATE TABLE "ad_hourly_insights" (
    "adId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "creativeId" TEXT NOT NULL,
    "impressions" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL,
    "spendMinor" INTEGER NOT NULL,
    "conversions" INTEGER NOT NULL,
    "conversionValueMinor" INTEGER NOT NULL,

    CONSTRAINT "ad_hourly_insights_pkey" PRIMARY KEY ("adId","date","hour")
);

-- CreateIndex
CREATE INDEX "ad_hourly_insights_workspaceId_date_idx" ON "ad_hourly_insights"("workspaceId", "date");
