-- AlterTable
ALTER TABLE "creatives" ADD COLUMN     "contentSha256" TEXT,
ADD COLUMN     "createdById" TEXT;

-- CreateIndex
CREATE INDEX "creatives_workspaceId_contentSha256_idx" ON "creatives"("workspaceId", "contentSha256");
