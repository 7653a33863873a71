-- CreateTable
CREATE TABLE "ad_account_pending_grants" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "platform" "Platform" NOT NULL,
    "credentialsCiphertext" TEXT NOT NULL,
    "accounts" JSONB NOT NULL,
    "pages" JSONB NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_account_pending_grants_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ad_account_pending_grants_workspaceId_idx" ON "ad_account_pending_grants"("workspaceId");
