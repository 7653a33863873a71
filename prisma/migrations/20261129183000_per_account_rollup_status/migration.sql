-- The rollup's health per ad account (docs/performance.md, "Rollup health"): a platform's second account that cannot be
-- read (not connected, or refused) has its own row, instead of hiding behind its platform's default account's success.
-- CreateTable
CREATE TABLE "performance_account_rollup_status" (
    "adAccountId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "lastRunAt" TIMESTAMP(3) NOT NULL,
    "lastSuccessAt" TIMESTAMP(3),
    "lastError" TEXT,

    CONSTRAINT "performance_account_rollup_status_pkey" PRIMARY KEY ("adAccountId")
);

-- CreateIndex
CREATE INDEX "performance_account_rollup_status_workspaceId_idx" ON "performance_account_rollup_status"("workspaceId");

-- Each platform's row was its default account's (the other accounts' reads were not told apart): that account keeps it.
-- The other accounts get theirs at the next hourly rollup.
INSERT INTO "performance_account_rollup_status" ("adAccountId", "workspaceId", "platform", "lastRunAt", "lastSuccessAt", "lastError")
SELECT a."id", s."workspaceId", s."platform", s."lastRunAt", s."lastSuccessAt", s."lastError"
  FROM "performance_rollup_status" s
  JOIN "ad_accounts" a ON a."workspaceId" = s."workspaceId" AND a."defaultFor" = s."platform";

-- DropTable
DROP TABLE "performance_rollup_status";
