"use server";
import { z } from "zod";
import { changePassword, createOwnWorkspace, updateProfile } from "@/lib/dashboard/account";
import { actionInput, runAsPrincipal } from "@/lib/dashboard/action-result";
import { setActiveWorkspaceCookie } from "@/lib/dashboard/current";

const ProfileInput = z.object({ name: z.string().max(1000), timeZone: z.string().max(100), locale: z.string().max(100).optional() });
const PasswordInput = z.object({ current: z.string().max(1000), next: z.string().max(1000) });
const WorkspaceInput = z.object({ name: z.string().max(1000) });

export async function updateProfileAction(input: { name: string; timeZone: string; locale?: string }) {
  return runAsPrincipal(async (p) => updateProfile(p.userId, actionInput(ProfileInput, input)), "/dashboard");
}

export async function changePasswordAction(input: { current: string; next: string }) {
  return runAsPrincipal(async (p) => changePassword(p.userId, actionInput(PasswordInput, input)));
}

/** Creates a workspace owned by the user and makes it the active one. */
export async function createWorkspaceAction(input: { name: string }) {
  return runAsPrincipal(async (p) => {
    const { workspaceId } = await createOwnWorkspace(p.userId, actionInput(WorkspaceInput, input));
    await setActiveWorkspaceCookie(workspaceId);
    return { workspaceId };
  }, "/dashboard");
}
