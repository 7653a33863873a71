-- AlterTable
ALTER TABLE "import_runs" ADD COLUMN     "transferredAt" TIMESTAMP(3);
