"use client";
import Link from "next/link";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { signUpAction, type SignUpState } from "../actions";

export function SignUpForm() {
  const [state, action, pending] = useActionState<SignUpState, FormData>(signUpAction, {});
  return (
    <form action={action} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <Field id="name" name="name" label="Your name" autoComplete="name" required defaultValue={state.values?.name} autoFocus />
      <Field id="email" name="email" type="email" label="Work email" autoComplete="email" required defaultValue={state.values?.email} />
      <Field
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        minLength={10}
        required
        hint="At least 10 characters."
      />
      <Field
        id="workspaceName"
        name="workspaceName"
        label="Workspace name"
        required
        defaultValue={state.values?.workspaceName}
        hint="Usually your company or brand."
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Creating your workspace…" : "Start free trial"}
      </Button>
      <p className="text-center text-xs text-slate-500">14 days free, no card needed. The trial covers the dashboard; API keys come with Pro.</p>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link className="font-medium text-indigo-700 underline-offset-2 hover:underline" href="/sign-in">
          Sign in
        </Link>
      </p>
    </form>
  );
}
