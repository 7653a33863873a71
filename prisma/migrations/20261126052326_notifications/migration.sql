-- CreateTable
CREATE TABLE "notification_preferences" (
    "workspaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "emailDisabledKinds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("workspaceId","userId")
);

-- CreateTable
CREATE TABLE "slack_channels" (
    "workspaceId" TEXT NOT NULL,
    "sealedUrl" TEXT NOT NULL,
    "urlHint" TEXT NOT NULL,
    "disabledKinds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "slack_channels_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "audience" JSONB NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "fannedOutAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_deliveries" (
    "id" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notifications_fannedOutAt_createdAt_idx" ON "notifications"("fannedOutAt", "createdAt");

-- CreateIndex
CREATE INDEX "notifications_workspaceId_createdAt_id_idx" ON "notifications"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "notifications_workspaceId_dedupeKey_key" ON "notifications"("workspaceId", "dedupeKey");

-- CreateIndex
CREATE INDEX "notification_deliveries_workspaceId_createdAt_idx" ON "notification_deliveries"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "notification_deliveries_notificationId_channel_recipient_key" ON "notification_deliveries"("notificationId", "channel", "recipient");
