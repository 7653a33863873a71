-- CreateTable
CREATE TABLE "automation_rule_evaluations" (
    "ruleId" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "leaseUntil" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automation_rule_evaluations_pkey" PRIMARY KEY ("ruleId")
);
