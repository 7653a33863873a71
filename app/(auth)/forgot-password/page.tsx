import type { Metadata } from "next";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Reset your password" };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold text-slate-900">Reset your password</h1>
      <p className="mb-6 text-sm text-slate-600">Enter the email you sign in with; we send you a link to choose a new password.</p>
      <ForgotPasswordForm />
    </>
  );
}
