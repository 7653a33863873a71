"use client";
import Link from "next/link";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/misc";
import { type ConfirmEmailState, confirmEmailAction } from "../actions";

export function ConfirmEmailForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<ConfirmEmailState, FormData>(confirmEmailAction, {});
  if (state.done)
    return (
      <div className="space-y-4">
        <Alert tone="green">Your email address is confirmed.</Alert>
        <Link href="/dashboard/library" className="block text-center text-sm font-medium text-indigo-700 underline-offset-2 hover:underline">
          Continue to Adloom
        </Link>
      </div>
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
