-- AlterTable
ALTER TABLE "creatives" ADD COLUMN     "nameLabels" JSONB;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "fileNamePattern" TEXT;
