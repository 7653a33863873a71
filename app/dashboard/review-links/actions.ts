"use server";
import { runTool } from "@/lib/dashboard/tool-action";

export async function revokeLinkAction(id: string) {
  return runTool("revoke_review_link", { id }, "/dashboard/review-links");
}

export async function shareFolderAction(input: {
  folderId: string;
  name: string;
  password: string;
  expiresAt: string;
  comment: boolean;
  decide: boolean;
  download: boolean;
  internalComments?: boolean;
}) {
  return runTool(
    "create_review_link",
    {
      name: input.name,
      folderId: input.folderId,
      password: input.password || undefined,
      expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined,
      permissions: { comment: input.comment, decide: input.decide, download: input.download, internalComments: input.internalComments },
    },
    "/dashboard/review-links",
  );
}

export async function reviewLinkUrlAction(id: string) {
  return runTool("get_review_link_url", { id });
}
