"use server";
import { redirect } from "next/navigation";
import { currentUserId, setActiveWorkspaceCookie } from "@/lib/dashboard/current";
import { isActiveMember } from "@/lib/dashboard/account";

/** Makes another of the user's workspaces the active one. */
export async function switchWorkspace(workspaceId: string): Promise<void> {
  const userId = await currentUserId();
  if (!userId) redirect("/sign-in");
  if (!(await isActiveMember(userId, workspaceId))) return;
  await setActiveWorkspaceCookie(workspaceId);
  redirect("/dashboard/library");
}
