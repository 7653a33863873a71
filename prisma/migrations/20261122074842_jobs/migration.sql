-- CreateEnum
CREATE TYPE "JobRunStatus" AS ENUM ('queued', 'running', 'sleeping', 'completed', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "job_events" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "ts" BIGINT NOT NULL,
    "processedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_runs" (
    "id" TEXT NOT NULL,
    "functionId" TEXT NOT NULL,
    "triggerKey" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "status" "JobRunStatus" NOT NULL DEFAULT 'queued',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL,
    "nextAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "requestVersion" INTEGER,
    "output" JSONB,
    "error" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "job_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_steps" (
    "seq" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "name" TEXT,
    "result" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_steps_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "job_waits" (
    "runId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT,
    "until" TIMESTAMP(3) NOT NULL,
    "eventName" TEXT,
    "expression" TEXT,
    "resolvedAt" TIMESTAMP(3),
    "result" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_waits_pkey" PRIMARY KEY ("runId","stepId")
);

-- CreateTable
CREATE TABLE "job_cron_schedules" (
    "functionId" TEXT NOT NULL,
    "cron" TEXT NOT NULL,
    "nextAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "job_cron_schedules_pkey" PRIMARY KEY ("functionId","cron")
);

-- CreateIndex
CREATE INDEX "job_events_processedAt_createdAt_idx" ON "job_events"("processedAt", "createdAt");

-- CreateIndex
CREATE INDEX "job_runs_status_nextAt_idx" ON "job_runs"("status", "nextAt");

-- CreateIndex
CREATE INDEX "job_runs_endedAt_idx" ON "job_runs"("endedAt");

-- CreateIndex
CREATE UNIQUE INDEX "job_runs_functionId_triggerKey_key" ON "job_runs"("functionId", "triggerKey");

-- CreateIndex
CREATE UNIQUE INDEX "job_steps_runId_stepId_key" ON "job_steps"("runId", "stepId");

-- CreateIndex
CREATE INDEX "job_waits_eventName_idx" ON "job_waits"("eventName");

-- AddForeignKey
ALTER TABLE "job_steps" ADD CONSTRAINT "job_steps_runId_fkey" FOREIGN KEY ("runId") REFERENCES "job_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_waits" ADD CONSTRAINT "job_waits_runId_fkey" FOREIGN KEY ("runId") REFERENCES "job_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
