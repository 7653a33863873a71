"use server";
import { z } from "zod";
import { actionInput, runAsPrincipal } from "@/lib/dashboard/action-result";
import { uploadProgress } from "@/lib/read-models/uploads";

const UploadIds = z.array(z.string().max(100)).max(200);

export async function uploadProgressAction(ids: string[]) {
  return runAsPrincipal(async (p) => uploadProgress(p, actionInput(UploadIds, ids)));
}
