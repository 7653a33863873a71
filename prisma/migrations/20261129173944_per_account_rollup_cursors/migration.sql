-- Each ad account is read over its own days (docs/performance.md, "Several accounts of one platform: time zones"): where
-- its reading resumes moves from the platform's cursor, counted in the default account's days, to a cursor per account.
-- CreateTable
CREATE TABLE "performance_account_cursors" (
    "adAccountId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "resumeFrom" TEXT NOT NULL,
    "today" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,

    CONSTRAINT "performance_account_cursors_pkey" PRIMARY KEY ("adAccountId")
);

-- CreateIndex
CREATE INDEX "performance_account_cursors_workspaceId_idx" ON "performance_account_cursors"("workspaceId");

-- The platform's cursor was counted in its default account's days: that account resumes where it did. The other accounts
-- get none, so their next pull reads their last 30 days again, in their own days: the hours the old cursor left out of
-- their stored days (an account west of its default) are read then.
INSERT INTO "performance_account_cursors" ("adAccountId", "workspaceId", "platform", "resumeFrom", "today", "timeZone")
SELECT a."id", c."workspaceId", c."platform", c."resumeFrom", c."today", c."timeZone"
  FROM "performance_cursors" c
  JOIN "ad_accounts" a ON a."workspaceId" = c."workspaceId" AND a."defaultFor" = c."platform";

-- AlterTable
ALTER TABLE "performance_cursors" DROP COLUMN "resumeFrom";
