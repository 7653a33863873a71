"use client";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { DoneNotice } from "@/components/auth/auth-card";
import { Alert } from "@/components/ui/misc";
import { type ConfirmEmailState, confirmEmailAction } from "../actions";

export function ConfirmEmailForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<ConfirmEmailState, FormData>(confirmEmailAction, {});
  if (state.done)
    return (
      <DoneNotice href="/dashboard/library" next="Continue to Adloom">
        Your email address is confirmed.
      </DoneNotice>
    );
  return (
    <form action={action} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <input type="hidden" name="token" value={token} />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Confirming…" : "Confirm email address"}
      </Button>
    </form>
  );
}
