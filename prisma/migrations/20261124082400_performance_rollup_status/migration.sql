-- CreateTable
CREATE TABLE "performance_rollup_status" (
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "lastRunAt" TIMESTAMP(3) NOT NULL,
    "lastSuccessAt" TIMESTAMP(3),
    "lastError" TEXT,

    CONSTRAINT "performance_rollup_status_pkey" PRIMARY KEY ("workspaceId","platform")
);

-- Accounts rolled up before this table existed: their cursor's last run (a success when it left no error).
INSERT INTO "performance_rollup_status" ("workspaceId", "platform", "lastRunAt", "lastSuccessAt", "lastError")
SELECT "workspaceId", "platform", "lastRunAt", CASE WHEN "lastError" IS NULL THEN "lastRunAt" END, "lastError"
FROM "performance_cursors";
