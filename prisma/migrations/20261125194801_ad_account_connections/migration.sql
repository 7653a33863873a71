-- CreateEnum
CREATE TYPE "AdAccountStatus" AS ENUM ('active', 'needs_reconnect', 'disconnected');

-- DropIndex
DROP INDEX "ad_accounts_workspaceId_platform_key";

-- AlterTable
ALTER TABLE "ad_accounts" ADD COLUMN     "connectedAt" TIMESTAMP(3),
ADD COLUMN     "credentialsCiphertext" TEXT,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "defaultFor" "Platform",
ADD COLUMN     "identityId" TEXT,
ADD COLUMN     "name" TEXT,
ADD COLUMN     "pageId" TEXT,
ADD COLUMN     "status" "AdAccountStatus" NOT NULL DEFAULT 'active',
ADD COLUMN     "statusReason" TEXT,
ADD COLUMN     "timeZone" TEXT,
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Data: each workspace had one account per platform; it becomes that platform's default.
UPDATE "ad_accounts" SET "defaultFor" = "platform";

-- CreateIndex
CREATE INDEX "ad_accounts_workspaceId_platform_idx" ON "ad_accounts"("workspaceId", "platform");

-- CreateIndex
CREATE UNIQUE INDEX "ad_accounts_workspaceId_platform_externalAccountId_key" ON "ad_accounts"("workspaceId", "platform", "externalAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "ad_accounts_workspaceId_defaultFor_key" ON "ad_accounts"("workspaceId", "defaultFor");
