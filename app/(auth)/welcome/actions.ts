"use server";
import { redirect } from "next/navigation";
import { createOwnWorkspace as createWorkspaceFor } from "@/lib/dashboard/account";
import { currentUserId, setActiveWorkspaceCookie } from "@/lib/dashboard/current";

export async function createOwnWorkspace(_prev: { error?: string }, form: FormData): Promise<{ error?: string }> {
  const userId = await currentUserId();
  if (!userId) redirect("/sign-in");
  const name = String(form.get("workspaceName") ?? "").trim();
  if (!name || name.length > 100) return { error: "Name your workspace (up to 100 characters)." };
  const { workspaceId } = await createWorkspaceFor(userId, { name });
  await setActiveWorkspaceCookie(workspaceId);
  redirect("/dashboard");
}
