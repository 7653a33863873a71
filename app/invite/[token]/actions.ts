"use server";
import { redirect } from "next/navigation";
import { signIn } from "@/auth";
import { isAppError } from "@/lib/errors";
import { currentUserId, setActiveWorkspaceCookie } from "@/lib/dashboard/current";
import { acceptInvite, acceptInviteWithNewAccount } from "@/lib/dashboard/account";

export async function acceptAsSignedIn(token: string): Promise<{ error?: string }> {
  const userId = await currentUserId();
  if (!userId) redirect(`/sign-in?callbackUrl=/invite/${encodeURIComponent(token)}`);
  try {
    const { workspaceId } = await acceptInvite(userId, token);
    await setActiveWorkspaceCookie(workspaceId);
  } catch (error) {
    if (isAppError(error)) return { error: error.message };
    throw error;
  }
  redirect("/dashboard/library");
}

export async function acceptWithNewAccount(token: string, _prev: { error?: string }, form: FormData): Promise<{ error?: string }> {
  const password = String(form.get("password") ?? "");
  let email: string;
  try {
    const account = await acceptInviteWithNewAccount(token, { name: String(form.get("name") ?? ""), password });
    email = account.email;
    await setActiveWorkspaceCookie(account.workspaceId);
  } catch (error) {
    if (isAppError(error)) return { error: error.message };
    throw error;
  }
  await signIn("credentials", { email, password, redirectTo: "/dashboard/library" });
  return {};
}
