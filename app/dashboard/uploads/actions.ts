"use server";
import { authorize } from "@/lib/auth/authorize";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { uploadProgress } from "@/lib/session/upload-progress";

export async function uploadProgressAction(ids: string[]) {
  return runAsPrincipal((p) => {
    authorize(p, "uploads.list");
    return uploadProgress(p, ids);
  });
}
