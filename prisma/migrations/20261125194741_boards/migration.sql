-- CreateTable
CREATE TABLE "boards" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "boards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "board_items" (
    "id" TEXT NOT NULL,
    "boardId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "orderKey" TEXT NOT NULL,
    "x" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "y" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "width" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "height" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "creativeId" TEXT,
    "text" TEXT,
    "color" TEXT,
    "fromItemId" TEXT,
    "toItemId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "board_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "board_shares" (
    "linkId" TEXT NOT NULL,
    "boardId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "board_shares_pkey" PRIMARY KEY ("linkId")
);

-- CreateIndex
CREATE INDEX "boards_workspaceId_createdAt_id_idx" ON "boards"("workspaceId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "board_items_boardId_orderKey_idx" ON "board_items"("boardId", "orderKey");

-- CreateIndex
CREATE INDEX "board_items_creativeId_idx" ON "board_items"("creativeId");

-- CreateIndex
CREATE INDEX "board_shares_boardId_idx" ON "board_shares"("boardId");

-- AddForeignKey
ALTER TABLE "board_items" ADD CONSTRAINT "board_items_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "boards"("id") ON DELETE CASCADE ON UPDATE CASCADE;
