"use server";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { runTool } from "@/lib/dashboard/tool-action";
import type { LibraryFolder } from "@/lib/read-models/library";

export async function createFolderAction(input: { name: string; parentId: string | null }): Promise<ActionResult<LibraryFolder>> {
  const result = await runTool("create_folder", input, "/dashboard/library");
  if (!result.ok) return result;
  const { id, name, parentId } = result.data.folder;
  return { ok: true, data: { id, name, parentId } };
}
