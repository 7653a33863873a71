"use server";
import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { signIn, signOut } from "@/auth";
import { isAppError } from "@/lib/errors";
import { signUp } from "@/lib/dashboard/account";

export interface SignInState {
  error?: string;
  /** "code": the password was right and the account needs its authenticator code. */
  step: "password" | "code";
  email?: string;
}

/** Only same-site paths may be returned to after sign-in. */
function safeCallback(value: FormDataEntryValue | null): string {
  const path = typeof value === "string" ? value : "";
  return path.startsWith("/") && !path.startsWith("//") ? path : "/dashboard";
}

const MESSAGES: Record<string, string> = {
  invalid_credentials: "That email and password do not match an account.",
  invalid_code: "That code did not match. Enter the current 6-digit code from your app, or a recovery code.",
  throttled: "Too many attempts. Wait 15 minutes and try again.",
};

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const code = String(form.get("code") ?? "");
  try {
    await signIn("credentials", {
      email,
      password: String(form.get("password") ?? ""),
      code,
      redirectTo: safeCallback(form.get("callbackUrl")),
    });
  } catch (error) {
    if (!(error instanceof AuthError)) throw error; // includes Next's redirect on success
    const reason = (error as AuthError & { code?: string }).code ?? "";
    if (reason === "two_factor_required") return { step: "code", email };
    return { step: code ? "code" : "password", email, error: MESSAGES[reason] ?? "Sign-in failed. Please try again." };
  }
  return { step: "password" };
}

export interface SignUpState {
  error?: string;
  values?: { name: string; email: string; workspaceName: string };
}

export async function signUpAction(_prev: SignUpState, form: FormData): Promise<SignUpState> {
  const values = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    workspaceName: String(form.get("workspaceName") ?? ""),
  };
  const password = String(form.get("password") ?? "");
  try {
    await signUp({ ...values, password });
  } catch (error) {
    if (isAppError(error)) return { error: error.message, values };
    throw error;
  }
  await signIn("credentials", { email: values.email, password, redirectTo: "/dashboard/library?welcome=1" });
  return {};
}

export async function signInWithProvider(form: FormData): Promise<void> {
  await signIn(String(form.get("provider")), { redirectTo: safeCallback(form.get("callbackUrl")) });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirect: false });
  redirect("/sign-in");
}
