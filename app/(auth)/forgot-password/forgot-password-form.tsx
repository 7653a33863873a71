"use client";
import Link from "next/link";
import { useActionState, useState } from "react";
import { CardLink } from "@/components/auth/auth-card";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { requestResetAction, type PasswordFormState } from "../password-actions";

export function ForgotPasswordForm() {
  const [state, action, pending] = useActionState<PasswordFormState, FormData>(requestResetAction, {});
  const [email, setEmail] = useState("");
  if (state.done)
    return (
      <div className="space-y-4">
        {state.outbox ? (
          <Alert tone="amber">
            If <strong>{state.email}</strong> has an Adloom account, the email with a reset link waits in this server&apos;s outbox: no mail server is
            configured, so ask whoever runs it for the link. The link works once, for an hour.
          </Alert>
        ) : (
          <Alert tone="green">
            If <strong>{state.email}</strong> has an Adloom account, an email with a reset link is on its way. The link works once, for an hour.
          </Alert>
        )}
        <CardLink href="/sign-in">Back to sign in</CardLink>
      </div>
    );
  return (
    <form action={action} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <Field id="email" name="email" type="email" label="Email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Sending…" : "Email me a reset link"}
      </Button>
      <p className="text-center text-sm">
        <Link href="/sign-in" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
