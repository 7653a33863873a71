"use server";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { uploadProgress } from "@/lib/read-models/uploads";

export async function uploadProgressAction(ids: string[]) {
  return runAsPrincipal((p) => uploadProgress(p, ids));
}
