"use client";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { DoneNotice } from "@/components/auth/auth-card";
import { Alert } from "@/components/ui/misc";
import { resetPasswordAction, type PasswordFormState } from "../../password-actions";

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<PasswordFormState, FormData>(resetPasswordAction, {});
  if (state.done)
    return (
      <DoneNotice href="/sign-in" next="Sign in">
        Your password is changed. Sign in with the new one.
        {state.revoked && (
          <>
            {" "}
            Your address was not confirmed until now, so whoever held the old password may not have been you: what was set up with the account before no longer
            works ({state.revoked}). Sign in with the new password alone, then set up again what you need.
          </>
        )}
      </DoneNotice>
    );
  return (
    <form action={action} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <input type="hidden" name="token" value={token} />
      <Field
        id="password"
        name="password"
        type="password"
        label="New password"
        autoComplete="new-password"
        required
        minLength={10}
        hint="At least 10 characters."
      />
      <Field id="confirm" name="confirm" type="password" label="Repeat the new password" autoComplete="new-password" required />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
