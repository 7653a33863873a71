"use server";
import { redirect } from "next/navigation";
import { currentUserId, setActiveWorkspaceCookie } from "@/lib/dashboard/current";
import { isActiveMember, mailTransport, sendEmailVerification, VERIFY_TTL_HOURS } from "@/lib/dashboard/account";

/** Makes another of the user's workspaces the active one. */
export async function switchWorkspace(workspaceId: string): Promise<void> {
  const userId = await currentUserId();
  if (!userId) redirect("/sign-in");
  if (!(await isActiveMember(userId, workspaceId))) return;
  await setActiveWorkspaceCookie(workspaceId);
  redirect("/dashboard/library");
}

/** Mails the signed-in user a new link to confirm their address (the banner's button); says what happened. */
export async function resendVerificationEmailAction(): Promise<{ message: string }> {
  const userId = await currentUserId();
  if (!userId) redirect("/sign-in");
  try {
    const result = await sendEmailVerification(userId);
    if (result === "already_verified") return { message: "Your email address is already confirmed." };
    if (result === "throttled") return { message: "We already sent several links in the last 15 minutes: use the newest email, or try again later." };
    return {
      message:
        mailTransport() === "outbox"
          ? "No mail server is configured, so the email with the link waits in this server's outbox: ask whoever runs it for the link."
          : `We emailed a new link. It works once, for ${VERIFY_TTL_HOURS} hours.`,
    };
  } catch (error) {
    console.error("[adloom] address confirmation email failed:", (error as Error).message);
    return { message: "We could not send the email just now. Please try again in a few minutes." };
  }
}
