-- CreateEnum
CREATE TYPE "AdAccountMode" AS ENUM ('sandbox', 'live');

-- CreateTable
CREATE TABLE "ad_accounts" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "mode" "AdAccountMode" NOT NULL DEFAULT 'sandbox',
    "externalAccountId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ad_accounts_workspaceId_platform_key" ON "ad_accounts"("workspaceId", "platform");
