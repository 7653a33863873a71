"use client";
import { useActionState, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { acceptAsSignedIn, acceptWithNewAccount } from "./actions";

export function AcceptForm({ token, proof }: { token: string; proof: string | null }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="space-y-3">
      {error && <Alert>{error}</Alert>}
      <Button className="w-full" disabled={pending} onClick={() => start(async () => setError((await acceptAsSignedIn(token, proof)).error ?? null))}>
        {pending ? "Joining…" : "Accept invite"}
      </Button>
    </div>
  );
}

export function NewAccountForm({ token, proof, email }: { token: string; proof: string | null; email: string }) {
  const [state, action, pending] = useActionState(acceptWithNewAccount.bind(null, token, proof), {});
  return (
    <form action={action} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <Field id="invite-account-email" label="Email" value={email} readOnly disabled />
      <Field id="name" name="name" label="Your name" autoComplete="name" required autoFocus />
      <Field
        id="password"
        name="password"
        type="password"
        label="Choose a password"
        autoComplete="new-password"
        minLength={10}
        required
        hint="At least 10 characters."
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Joining…" : "Create account and join"}
      </Button>
    </form>
  );
}
