-- CreateTable
CREATE TABLE "automation_rules" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "definition" JSONB NOT NULL,
    "cooldownMinutes" INTEGER NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "automation_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_rule_runs" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "hourKey" TEXT NOT NULL,
    "plan" JSONB NOT NULL,
    "matchCount" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "actionsTaken" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "automation_rule_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_rule_actions" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "objectId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "actedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automation_rule_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_flows" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "triggerKind" TEXT NOT NULL,
    "eventType" TEXT,
    "cron" TEXT,
    "timeZone" TEXT,
    "condition" JSONB,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "secret" TEXT NOT NULL,
    "lastFiredAt" TIMESTAMP(3),
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automation_flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_flow_runs" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "triggerKey" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "responseStatus" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "automation_flow_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "automation_rules_workspaceId_createdAt_id_idx" ON "automation_rules"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "automation_rule_runs_ruleId_createdAt_id_idx" ON "automation_rule_runs"("ruleId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "automation_rule_runs_ruleId_hourKey_key" ON "automation_rule_runs"("ruleId", "hourKey");

-- CreateIndex
CREATE INDEX "automation_rule_actions_ruleId_objectId_actedAt_idx" ON "automation_rule_actions"("ruleId", "objectId", "actedAt");

-- CreateIndex
CREATE UNIQUE INDEX "automation_rule_actions_runId_objectId_key" ON "automation_rule_actions"("runId", "objectId");

-- CreateIndex
CREATE INDEX "automation_flows_workspaceId_triggerKind_eventType_idx" ON "automation_flows"("workspaceId", "triggerKind", "eventType");

-- CreateIndex
CREATE INDEX "automation_flows_triggerKind_idx" ON "automation_flows"("triggerKind");

-- CreateIndex
CREATE INDEX "automation_flow_runs_flowId_createdAt_idx" ON "automation_flow_runs"("flowId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "automation_flow_runs_flowId_triggerKey_key" ON "automation_flow_runs"("flowId", "triggerKey");
