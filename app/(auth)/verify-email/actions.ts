"use server";
import { isAppError } from "@/lib/errors";
import { confirmEmailVerification } from "@/lib/dashboard/account";
import { currentUserId } from "@/lib/dashboard/current";

export interface ConfirmEmailState {
  error?: string;
  done?: boolean;
}

/** Confirms the signed-in user's address with the link mailed to it (the page's form: the link's token, hidden). */
export async function confirmEmailAction(_prev: ConfirmEmailState, form: FormData): Promise<ConfirmEmailState> {
  const userId = await currentUserId();
  if (!userId) return { error: "Your session has ended: sign in, then open the link again." };
  try {
    await confirmEmailVerification(userId, String(form.get("token") ?? ""));
    return { done: true };
  } catch (error) {
    if (isAppError(error)) return { error: `${error.message}.` };
    throw error;
  }
}
