-- AlterTable
ALTER TABLE "creative_performance" ADD COLUMN     "currency" TEXT;

-- Existing rows (docs/decisions.md): where the workspace's ad accounts share one currency, the stored sums are in it.
-- Where they differ, the sums add yen to cents and mean nothing in either: they stay NULL (read in the workspace's most
-- advanced cursor's currency, as before) until the next hourly rollup rewrites them in the creative's primary currency.
UPDATE "creative_performance" p SET "currency" = c."currency"
  FROM (SELECT "workspaceId", min("currency") AS "currency" FROM "performance_cursors" GROUP BY "workspaceId" HAVING count(DISTINCT "currency") = 1) c
  WHERE c."workspaceId" = p."workspaceId";
