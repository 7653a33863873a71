-- The sign-in limits (and the reset and confirmation emails, review-link passwords) counted here instead of in each
-- process's memory: every instance on one database shares the budget, and a restart no longer gives it back.
-- Nothing to carry over: the old counters lived in memory only.
-- CreateTable
CREATE TABLE "attempt_counters" (
    "name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "resetAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "attempt_counters_pkey" PRIMARY KEY ("name","key")
);

-- CreateIndex
CREATE INDEX "attempt_counters_resetAt_idx" ON "attempt_counters"("resetAt");
