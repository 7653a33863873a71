"use server";
import { headers } from "next/headers";
import { getConfig } from "@/lib/services";
import { isAppError } from "@/lib/errors";
import { completePasswordReset, requestPasswordReset } from "@/lib/session/password-reset";

export interface PasswordFormState {
  error?: string;
  done?: boolean;
  email?: string;
}

/** Absolute origin for links: PUBLIC_BASE_URL when set, else the host this request came to. */
async function origin(): Promise<string> {
  if (process.env.PUBLIC_BASE_URL) return getConfig().publicBaseUrl;
  const h = await headers();
  return `${h.get("x-forwarded-proto") ?? "http"}://${h.get("x-forwarded-host") ?? h.get("host") ?? "localhost"}`;
}

export async function requestResetAction(_prev: PasswordFormState, form: FormData): Promise<PasswordFormState> {
  const email = String(form.get("email") ?? "");
  try {
    await requestPasswordReset({ email, baseUrl: await origin() });
  } catch (error) {
    if (isAppError(error)) return { error: error.message, email };
    console.error("[adloom] password reset email failed:", (error as Error).message);
    return { error: "We could not send the email just now. Please try again in a few minutes.", email };
  }
  return { done: true, email };
}

export async function resetPasswordAction(_prev: PasswordFormState, form: FormData): Promise<PasswordFormState> {
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? "")) return { error: "The two passwords differ." };
  try {
    const { email } = await completePasswordReset({ token: String(form.get("token") ?? ""), password });
    return { done: true, email };
  } catch (error) {
    if (isAppError(error)) return { error: error.message };
    throw error;
  }
}
