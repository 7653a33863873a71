import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { folderScope } from "@/lib/folders/access";
import { digestFile } from "@/lib/storage";

/** SHA-256 (hex) of a local file, read and hashed off the main thread. */
export async function sha256File(file: string): Promise<string> {
  return (await digestFile(file, "sha256")).digest;
}

export interface DuplicateOf {
  id: string;
  fileName: string;
}

/**
 * For each given creative whose bytes were seen before in the workspace, the earliest creative
 * (that the principal may see) with the same content: the later copies are the duplicates.
 */
export async function findDuplicates(
  principal: Principal,
  rows: { id: string; contentSha256: string | null; createdAt: Date }[],
): Promise<Map<string, DuplicateOf>> {
  const hashes = [...new Set(rows.map((r) => r.contentSha256).filter((h): h is string => Boolean(h)))];
  const result = new Map<string, DuplicateOf>();
  if (!hashes.length) return result;
  const originals = await getDb().creative.findMany({
    where: { workspaceId: principal.workspaceId, contentSha256: { in: hashes }, ...(await folderScope(principal)) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, fileName: true, contentSha256: true },
    distinct: ["contentSha256"],
  });
  const first = new Map(originals.map((o) => [o.contentSha256!, o]));
  for (const r of rows) {
    const original = r.contentSha256 ? first.get(r.contentSha256) : undefined;
    if (original && original.id !== r.id) result.set(r.id, { id: original.id, fileName: original.fileName });
  }
  return result;
}
