"use server";
import { actionInput, runAsPrincipal } from "@/lib/dashboard/action-result";
import { runTool } from "@/lib/dashboard/tool-action";
import { type CreativeFilters, LibraryPageInput, loadLibraryPage } from "@/lib/read-models/library";

/** One page of the library grid (search, filters and sort run in the database). */
export async function loadLibraryPageAction(filters: CreativeFilters, cursor: string | null) {
  return runAsPrincipal(async (p) => loadLibraryPage(p, actionInput(LibraryPageInput, { ...filters, cursor: cursor ?? undefined })));
}

export async function moveCreativesAction(ids: string[], folderId: string | null) {
  return runTool("move_creatives", { ids, folderId });
}

export async function renameFolderAction(id: string, name: string) {
  return runTool("rename_folder", { id, name }, "/dashboard/library");
}

export async function deleteFolderAction(id: string) {
  return runTool("delete_folder", { id }, "/dashboard/library");
}
