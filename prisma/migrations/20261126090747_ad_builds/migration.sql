-- CreateTable
CREATE TABLE "ad_builds" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "copyVariantId" TEXT,
    "name" TEXT NOT NULL,
    "callToAction" TEXT NOT NULL,
    "landingUrl" TEXT NOT NULL,
    "leadFormId" TEXT,
    "draftId" TEXT,
    "createdById" TEXT,
    "pushId" TEXT NOT NULL,
    "pushJobRun" INTEGER NOT NULL,
    "ownsPush" BOOLEAN NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'waiting_for_media',
    "run" INTEGER NOT NULL DEFAULT 1,
    "adId" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ad_builds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ad_builds_workspaceId_createdAt_idx" ON "ad_builds"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ad_builds_clientRef_workspaceId_key" ON "ad_builds"("clientRef", "workspaceId");
