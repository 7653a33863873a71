"use server";
import { authorize } from "@/lib/auth/authorize";
import { moveCreatives } from "@/lib/creatives/move-creatives";
import type { CreativeFilters } from "@/lib/creatives/search-creatives";
import { badRequest } from "@/lib/errors";
import { deleteFolder, FolderNameSchema, renameFolder } from "@/lib/folders/library-folders";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { loadLibraryPage } from "@/lib/session/library-page";

/** One page of the library grid (search, filters and sort run in the database). */
export async function loadLibraryPageAction(filters: CreativeFilters, cursor: string | null) {
  return runAsPrincipal((p) => {
    authorize(p, "creatives.list");
    return loadLibraryPage(p, { ...filters, cursor: cursor ?? undefined });
  });
}

export async function moveCreativesAction(ids: string[], folderId: string | null) {
  return runAsPrincipal((p) => {
    authorize(p, "creatives.move");
    return moveCreatives(p, { ids, folderId });
  });
}

export async function renameFolderAction(id: string, name: string) {
  return runAsPrincipal(async (p) => {
    authorize(p, "folders.write");
    const parsed = FolderNameSchema.safeParse(name);
    if (!parsed.success) throw badRequest("Give the folder a name of 1 to 200 characters");
    return renameFolder(p, { id, name: parsed.data });
  }, "/dashboard/library");
}

export async function deleteFolderAction(id: string) {
  return runAsPrincipal(async (p) => {
    authorize(p, "folders.delete");
    return deleteFolder(p, { id });
  }, "/dashboard/library");
}
