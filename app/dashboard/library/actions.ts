"use server";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { createLibraryFolder } from "@/lib/session/library-view";

export async function createFolderAction(input: { name: string; parentId: string | null }) {
  return runAsPrincipal((p) => createLibraryFolder(p, input), "/dashboard/library");
}
