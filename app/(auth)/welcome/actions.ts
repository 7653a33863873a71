"use server";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { currentUserId, setActiveWorkspaceCookie } from "@/lib/dashboard/current";
import { createWorkspace } from "@/lib/workspaces/workspaces";

export async function createOwnWorkspace(_prev: { error?: string }, form: FormData): Promise<{ error?: string }> {
  const userId = await currentUserId();
  if (!userId) redirect("/sign-in");
  const name = String(form.get("workspaceName") ?? "").trim();
  if (!name || name.length > 100) return { error: "Name your workspace (up to 100 characters)." };
  const user = await getDb().user.findUniqueOrThrow({ where: { id: userId } });
  const { workspaceId } = await createWorkspace({ name, plan: null, ownerEmail: user.email });
  await setActiveWorkspaceCookie(workspaceId);
  redirect("/dashboard");
}
