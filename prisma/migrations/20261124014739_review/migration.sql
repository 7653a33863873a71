-- CreateEnum
CREATE TYPE "ReviewStatus" AS ENUM ('none', 'in_review', 'changes_requested', 'approved');

-- CreateTable
CREATE TABLE "creative_reviews" (
    "creativeId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "status" "ReviewStatus" NOT NULL DEFAULT 'none',
    "currentVersion" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "creative_reviews_pkey" PRIMARY KEY ("creativeId")
);

-- CreateTable
CREATE TABLE "review_status_changes" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "status" "ReviewStatus" NOT NULL,
    "actorUserId" TEXT,
    "actorName" TEXT NOT NULL,
    "linkId" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_status_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_requests" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "reviewerUserId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "creative_versions" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "fileName" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "durationMs" INTEGER,
    "storageKey" TEXT NOT NULL,
    "previewStorageKey" TEXT,
    "actorName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "creative_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_comments" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "versionNumber" INTEGER NOT NULL,
    "parentId" TEXT,
    "authorUserId" TEXT,
    "authorName" TEXT NOT NULL,
    "authorEmail" TEXT,
    "linkId" TEXT,
    "body" TEXT NOT NULL,
    "timeSeconds" DOUBLE PRECISION,
    "pinX" DOUBLE PRECISION,
    "pinY" DOUBLE PRECISION,
    "resolvedAt" TIMESTAMP(3),
    "resolvedBy" TEXT,
    "editedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_links" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "folderId" TEXT,
    "passwordHash" TEXT,
    "expiresAt" TIMESTAMP(3),
    "canComment" BOOLEAN NOT NULL DEFAULT true,
    "canDecide" BOOLEAN NOT NULL DEFAULT false,
    "allowDownload" BOOLEAN NOT NULL DEFAULT false,
    "revokedAt" TIMESTAMP(3),
    "lastViewEventAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_link_creatives" (
    "linkId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,

    CONSTRAINT "review_link_creatives_pkey" PRIMARY KEY ("linkId","creativeId")
);

-- CreateIndex
CREATE INDEX "creative_reviews_workspaceId_status_idx" ON "creative_reviews"("workspaceId", "status");

-- CreateIndex
CREATE INDEX "review_status_changes_creativeId_createdAt_idx" ON "review_status_changes"("creativeId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "review_requests_creativeId_reviewerUserId_key" ON "review_requests"("creativeId", "reviewerUserId");

-- CreateIndex
CREATE UNIQUE INDEX "creative_versions_creativeId_number_key" ON "creative_versions"("creativeId", "number");

-- CreateIndex
CREATE INDEX "review_comments_creativeId_versionNumber_createdAt_idx" ON "review_comments"("creativeId", "versionNumber", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "review_links_tokenHash_key" ON "review_links"("tokenHash");

-- CreateIndex
CREATE INDEX "review_links_workspaceId_createdAt_idx" ON "review_links"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "review_link_creatives_creativeId_idx" ON "review_link_creatives"("creativeId");

-- AddForeignKey
ALTER TABLE "creative_reviews" ADD CONSTRAINT "creative_reviews_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_status_changes" ADD CONSTRAINT "review_status_changes_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "creative_versions" ADD CONSTRAINT "creative_versions_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_link_creatives" ADD CONSTRAINT "review_link_creatives_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "review_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_link_creatives" ADD CONSTRAINT "review_link_creatives_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;
