-- AlterTable
ALTER TABLE "uploads" ADD COLUMN     "versionOfCreativeId" TEXT;
