"use server";
import { redirect } from "next/navigation";
import { signIn } from "@/auth";
import { isAppError } from "@/lib/errors";
import { currentUserId, setActiveWorkspaceCookie } from "@/lib/dashboard/current";
import { acceptInvite, acceptInviteWithNewAccount } from "@/lib/dashboard/account";

/** The invite page's path, with the emailed link's proof when it was opened from the email. */
const invitePath = (token: string, proof: string | null) => `/invite/${encodeURIComponent(token)}${proof ? `?mail=${encodeURIComponent(proof)}` : ""}`;

export async function acceptAsSignedIn(token: string, proof: string | null): Promise<{ error?: string }> {
  const userId = await currentUserId();
  if (!userId) redirect(`/sign-in?callbackUrl=${encodeURIComponent(invitePath(token, proof))}`);
  try {
    const { workspaceId } = await acceptInvite(userId, token, proof);
    await setActiveWorkspaceCookie(workspaceId);
  } catch (error) {
    if (isAppError(error)) return { error: error.message };
    throw error;
  }
  redirect("/dashboard/library");
}

export async function acceptWithNewAccount(token: string, proof: string | null, _prev: { error?: string }, form: FormData): Promise<{ error?: string }> {
  const password = String(form.get("password") ?? "");
  let email: string;
  try {
    const account = await acceptInviteWithNewAccount(token, { name: String(form.get("name") ?? ""), password }, proof);
    email = account.email;
    await setActiveWorkspaceCookie(account.workspaceId);
  } catch (error) {
    if (isAppError(error)) return { error: error.message };
    throw error;
  }
  await signIn("credentials", { email, password, redirectTo: "/dashboard/library" });
  return {};
}
