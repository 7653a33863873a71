-- Repair first: a link sharing a folder that no longer exists (deleted before this key), or another workspace's
-- folder, shares nothing and never will; it goes, as the key below deletes a link with its folder from now on
-- (its guests get the "not available" answer of a revoked link).
DELETE FROM "review_links" l
  WHERE l."folderId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "folders" f WHERE f."id" = l."folderId" AND f."workspaceId" = l."workspaceId");

-- CreateIndex
CREATE INDEX "review_links_folderId_idx" ON "review_links"("folderId");

-- AddForeignKey
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "folders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
