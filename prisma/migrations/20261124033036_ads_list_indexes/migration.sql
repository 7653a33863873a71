-- DropIndex
DROP INDEX "ad_campaigns_workspaceId_clientRef_key";

-- DropIndex
DROP INDEX "ad_sets_workspaceId_clientRef_key";

-- DropIndex
DROP INDEX "ads_workspaceId_clientRef_key";

-- DropIndex
DROP INDEX "ads_workspaceId_creativeId_idx";

-- CreateIndex
CREATE UNIQUE INDEX "ad_campaigns_clientRef_workspaceId_key" ON "ad_campaigns"("clientRef", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "ad_sets_clientRef_workspaceId_key" ON "ad_sets"("clientRef", "workspaceId");

-- CreateIndex
CREATE INDEX "ads_creativeId_idx" ON "ads"("creativeId");

-- CreateIndex
CREATE UNIQUE INDEX "ads_clientRef_workspaceId_key" ON "ads"("clientRef", "workspaceId");
