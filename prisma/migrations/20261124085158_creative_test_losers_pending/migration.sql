-- AlterTable
ALTER TABLE "creative_tests" ADD COLUMN     "losersPending" BOOLEAN NOT NULL DEFAULT false;
