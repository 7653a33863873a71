-- AlterTable
ALTER TABLE "uploads" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 0;
