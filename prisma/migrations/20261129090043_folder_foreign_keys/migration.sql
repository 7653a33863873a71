-- Repair first: rows filed under a folder that no longer exists (deleted while an upload or import into it
-- was on its way), or under another workspace's folder, go to the library root, where the foreign keys below
-- put them from now on when a folder is deleted.
UPDATE "uploads" t SET "folderId" = NULL
  WHERE t."folderId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "folders" f WHERE f."id" = t."folderId" AND f."workspaceId" = t."workspaceId");
UPDATE "creatives" t SET "folderId" = NULL
  WHERE t."folderId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "folders" f WHERE f."id" = t."folderId" AND f."workspaceId" = t."workspaceId");
UPDATE "import_runs" t SET "folderId" = NULL
  WHERE t."folderId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "folders" f WHERE f."id" = t."folderId" AND f."workspaceId" = t."workspaceId");
UPDATE "watched_folders" t SET "folderId" = NULL
  WHERE t."folderId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "folders" f WHERE f."id" = t."folderId" AND f."workspaceId" = t."workspaceId");

-- CreateIndex
CREATE INDEX "creatives_folderId_idx" ON "creatives"("folderId");

-- CreateIndex
CREATE INDEX "import_runs_folderId_idx" ON "import_runs"("folderId");

-- CreateIndex
CREATE INDEX "uploads_folderId_idx" ON "uploads"("folderId");

-- AddForeignKey
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "watched_folders" ADD CONSTRAINT "watched_folders_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "creatives" ADD CONSTRAINT "creatives_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;
