-- CreateEnum
CREATE TYPE "MediaKind" AS ENUM ('image', 'video');

-- CreateEnum
CREATE TYPE "Platform" AS ENUM ('platform_a', 'platform_b');

-- CreateEnum
CREATE TYPE "UploadStatus" AS ENUM ('processing', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "CreativeStatus" AS ENUM ('importing', 'ready', 'failed');

-- CreateTable
CREATE TABLE "uploads" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "folderId" TEXT,
    "createdById" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "storageKey" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "status" "UploadStatus" NOT NULL DEFAULT 'processing',
    "error" TEXT,
    "jobRun" INTEGER NOT NULL DEFAULT 1,
    "platformAImageHash" TEXT,
    "platformAVideoId" TEXT,
    "platformBImageId" TEXT,
    "platformBVideoId" TEXT,
    "creativeId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "creatives" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "folderId" TEXT,
    "uploadId" TEXT,
    "fileName" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "status" "CreativeStatus" NOT NULL DEFAULT 'importing',
    "error" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "durationMs" INTEGER,
    "storageKey" TEXT NOT NULL,
    "previewStorageKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "creatives_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "copy_variants" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "headline" TEXT,
    "primaryText" TEXT,
    "description" TEXT,
    "label" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "copy_variants_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "uploads_workspaceId_createdAt_id_idx" ON "uploads"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "uploads_status_idx" ON "uploads"("status");

-- CreateIndex
CREATE INDEX "creatives_workspaceId_createdAt_id_idx" ON "creatives"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "creatives_workspaceId_folderId_idx" ON "creatives"("workspaceId", "folderId");

-- CreateIndex
CREATE INDEX "copy_variants_creativeId_createdAt_id_idx" ON "copy_variants"("creativeId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "copy_variants" ADD CONSTRAINT "copy_variants_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;
