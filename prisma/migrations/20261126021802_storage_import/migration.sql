-- CreateEnum
CREATE TYPE "StorageProvider" AS ENUM ('s3', 'url', 'dropbox', 'google_drive');

-- CreateEnum
CREATE TYPE "StorageConnectionStatus" AS ENUM ('active', 'revoked');

-- CreateEnum
CREATE TYPE "ImportRunKind" AS ENUM ('one_off', 'sync');

-- CreateEnum
CREATE TYPE "ImportRunStatus" AS ENUM ('running', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "ImportItemStatus" AS ENUM ('queued', 'transferring', 'imported', 'skipped', 'failed');

-- CreateTable
CREATE TABLE "storage_connections" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "provider" "StorageProvider" NOT NULL,
    "name" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "credentialsCiphertext" TEXT,
    "status" "StorageConnectionStatus" NOT NULL DEFAULT 'active',
    "statusReason" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "storage_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_runs" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "watchedFolderId" TEXT,
    "kind" "ImportRunKind" NOT NULL,
    "status" "ImportRunStatus" NOT NULL DEFAULT 'running',
    "folderId" TEXT,
    "platform" "Platform" NOT NULL DEFAULT 'platform_a',
    "createdById" TEXT NOT NULL,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "importedCount" INTEGER NOT NULL DEFAULT 0,
    "skippedCount" INTEGER NOT NULL DEFAULT 0,
    "failedCount" INTEGER NOT NULL DEFAULT 0,
    "duplicateCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "import_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_items" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "sourcePath" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sourceRevision" TEXT,
    "sizeBytes" BIGINT,
    "bytesDone" BIGINT NOT NULL DEFAULT 0,
    "contentHash" TEXT,
    "perceptualHash" TEXT,
    "nearDuplicateOf" TEXT,
    "status" "ImportItemStatus" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "uploadId" TEXT,
    "creativeId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "import_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "watched_folders" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "sourcePath" TEXT NOT NULL,
    "folderId" TEXT,
    "platform" "Platform" NOT NULL DEFAULT 'platform_a',
    "cursor" TEXT,
    "createdById" TEXT NOT NULL,
    "lastSyncAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watched_folders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "storage_connections_workspaceId_createdAt_idx" ON "storage_connections"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "import_runs_workspaceId_createdAt_id_idx" ON "import_runs"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "import_runs_watchedFolderId_idx" ON "import_runs"("watchedFolderId");

-- CreateIndex
CREATE INDEX "import_items_runId_createdAt_idx" ON "import_items"("runId", "createdAt");

-- CreateIndex
CREATE INDEX "import_items_workspaceId_connectionId_sourceId_idx" ON "import_items"("workspaceId", "connectionId", "sourceId");

-- CreateIndex
CREATE INDEX "import_items_workspaceId_contentHash_idx" ON "import_items"("workspaceId", "contentHash");

-- CreateIndex
CREATE INDEX "watched_folders_workspaceId_idx" ON "watched_folders"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "watched_folders_connectionId_sourcePath_key" ON "watched_folders"("connectionId", "sourcePath");
