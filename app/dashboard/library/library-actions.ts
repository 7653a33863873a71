"use server";
import { runTool } from "@/lib/dashboard/tool-action";

export async function moveCreativesAction(ids: string[], folderId: string | null) {
  return runTool("move_creatives", { ids, folderId });
}

export async function renameFolderAction(id: string, name: string) {
  return runTool("rename_folder", { id, name }, "/dashboard/library");
}

export async function deleteFolderAction(id: string) {
  return runTool("delete_folder", { id }, "/dashboard/library");
}
