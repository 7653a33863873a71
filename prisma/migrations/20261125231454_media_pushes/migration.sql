-- CreateEnum
CREATE TYPE "MediaPushState" AS ENUM ('queued', 'transferring', 'processing', 'ready', 'failed');

-- CreateTable
CREATE TABLE "media_pushes" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "adAccountId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "creativeId" TEXT,
    "uploadId" TEXT,
    "jobRun" INTEGER NOT NULL DEFAULT 1,
    "fileName" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "storageKey" TEXT NOT NULL,
    "state" "MediaPushState" NOT NULL DEFAULT 'queued',
    "externalId" TEXT,
    "sessionId" TEXT,
    "chunkSizeBytes" INTEGER NOT NULL DEFAULT 0,
    "chunksTotal" INTEGER NOT NULL DEFAULT 0,
    "chunksDone" INTEGER NOT NULL DEFAULT 0,
    "failureReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "media_pushes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_media_sessions" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "accountExternalId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "fileName" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "fileSize" INTEGER NOT NULL,
    "receivedBytes" INTEGER NOT NULL DEFAULT 0,
    "headBase64" TEXT NOT NULL DEFAULT '',
    "chunksAccepted" INTEGER NOT NULL DEFAULT 0,
    "chunksRepeated" INTEGER NOT NULL DEFAULT 0,
    "externalId" TEXT NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_media_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "media_pushes_workspaceId_createdAt_idx" ON "media_pushes"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "media_pushes_creativeId_adAccountId_key" ON "media_pushes"("creativeId", "adAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "media_pushes_uploadId_adAccountId_key" ON "media_pushes"("uploadId", "adAccountId");

-- CreateIndex
CREATE INDEX "sandbox_media_sessions_workspaceId_idx" ON "sandbox_media_sessions"("workspaceId");

-- CreateIndex
CREATE INDEX "sandbox_media_sessions_externalId_idx" ON "sandbox_media_sessions"("externalId");
