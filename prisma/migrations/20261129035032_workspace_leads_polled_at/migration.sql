-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "leadsPolledAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "workspaces_leadsPolledAt_idx" ON "workspaces"("leadsPolledAt");
