-- CreateEnum
CREATE TYPE "AdCommentState" AS ENUM ('new', 'hidden', 'replied', 'deleted');

-- AlterTable
ALTER TABLE "sandbox_comments" ADD COLUMN     "byPage" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "deletedAt" TIMESTAMP(3),
ADD COLUMN     "parentId" TEXT;

-- CreateTable
CREATE TABLE "ad_comment_items" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "adAccountId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "externalId" TEXT NOT NULL,
    "adExternalId" TEXT NOT NULL,
    "adId" TEXT,
    "authorName" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "commentedAt" TIMESTAMP(3) NOT NULL,
    "state" "AdCommentState" NOT NULL DEFAULT 'new',
    "replyExternalId" TEXT,
    "replyMessage" TEXT,
    "rulesCheckedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ad_comment_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_comment_audit" (
    "id" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "userId" TEXT,
    "apiKeyId" TEXT,
    "ruleId" TEXT,
    "ruleKeyword" TEXT,
    "detail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_comment_audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "moderation_rules" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "keyword" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "moderation_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment_pull_cursors" (
    "adAccountId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "afterTime" TIMESTAMP(3) NOT NULL,
    "afterId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "comment_pull_cursors_pkey" PRIMARY KEY ("adAccountId")
);

-- CreateIndex
CREATE INDEX "ad_comment_items_workspaceId_createdAt_id_idx" ON "ad_comment_items"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ad_comment_items_workspaceId_state_createdAt_id_idx" ON "ad_comment_items"("workspaceId", "state", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ad_comment_items_adAccountId_rulesCheckedAt_idx" ON "ad_comment_items"("adAccountId", "rulesCheckedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ad_comment_items_adAccountId_externalId_key" ON "ad_comment_items"("adAccountId", "externalId");

-- CreateIndex
CREATE INDEX "ad_comment_audit_commentId_createdAt_idx" ON "ad_comment_audit"("commentId", "createdAt");

-- CreateIndex
CREATE INDEX "moderation_rules_workspaceId_createdAt_id_idx" ON "moderation_rules"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "moderation_rules_workspaceId_normalized_key" ON "moderation_rules"("workspaceId", "normalized");

-- AddForeignKey
ALTER TABLE "ad_comment_audit" ADD CONSTRAINT "ad_comment_audit_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "ad_comment_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;
