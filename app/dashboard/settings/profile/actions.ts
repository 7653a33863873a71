"use server";
import { changePassword, createOwnWorkspace, updateProfile } from "@/lib/dashboard/account";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { setActiveWorkspaceCookie } from "@/lib/dashboard/current";

export async function updateProfileAction(input: { name: string; timeZone: string; locale?: string }) {
  return runAsPrincipal((p) => updateProfile(p.userId, input), "/dashboard");
}

export async function changePasswordAction(input: { current: string; next: string }) {
  return runAsPrincipal((p) => changePassword(p.userId, input));
}

/** Creates a workspace owned by the user and makes it the active one. */
export async function createWorkspaceAction(input: { name: string }) {
  return runAsPrincipal(async (p) => {
    const { workspaceId } = await createOwnWorkspace(p.userId, input);
    await setActiveWorkspaceCookie(workspaceId);
    return { workspaceId };
  }, "/dashboard");
}
