"use server";
import { isAppError } from "@/lib/errors";
import { completePasswordReset, mailTransport, requestPasswordReset, revokedAccessInWords } from "@/lib/dashboard/account";

export interface PasswordFormState {
  error?: string;
  done?: boolean;
  email?: string;
  /** The email waits in the server's outbox (no SMTP server configured) instead of being sent. */
  outbox?: boolean;
  /** A reset that first proved the address: what it revoked, in words ("1 API key and two-factor authentication"). */
  revoked?: string;
}

export async function requestResetAction(_prev: PasswordFormState, form: FormData): Promise<PasswordFormState> {
  const email = String(form.get("email") ?? "");
  try {
    await requestPasswordReset({ email });
  } catch (error) {
    if (isAppError(error)) return { error: error.message, email };
    // The email itself is sent after this answer, by a job that retries; what failed here is storing the request.
    console.error("[adloom] password reset request failed:", (error as Error).message);
    return { error: "We could not take the request just now. Please try again in a few minutes.", email };
  }
  return { done: true, email, outbox: mailTransport() === "outbox" };
}

export async function resetPasswordAction(_prev: PasswordFormState, form: FormData): Promise<PasswordFormState> {
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? "")) return { error: "The two passwords differ." };
  try {
    const { email, revoked } = await completePasswordReset({ token: String(form.get("token") ?? ""), password });
    const words = revoked && revokedAccessInWords(revoked);
    return { done: true, email, ...(words ? { revoked: words } : {}) };
  } catch (error) {
    if (isAppError(error)) return { error: error.message };
    throw error;
  }
}
