import type { Metadata } from "next";
import { CardLink } from "@/components/auth/auth-card";
import { findPasswordReset } from "@/lib/dashboard/account";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: "Choose a new password" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await findPasswordReset(token);
  if (!reset)
    return (
      <>
        <h1 className="mb-2 text-xl font-semibold text-slate-900">This link cannot be used</h1>
        <p className="mb-6 text-sm text-slate-600">Reset links work once, for an hour. Ask for a new one.</p>
        <CardLink href="/forgot-password">Send a new link</CardLink>
      </>
    );
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold text-slate-900">Choose a new password</h1>
      <p className="mb-6 text-sm text-slate-600">For {reset.email}</p>
      <ResetPasswordForm token={token} />
    </>
  );
}
