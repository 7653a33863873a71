-- AlterTable
ALTER TABLE "performance_cursors" DROP COLUMN "lastError",
DROP COLUMN "lastRunAt";
