"use client";
import Link from "next/link";
import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { signInAction, type SignInState } from "../actions";

export function SignInForm({ callbackUrl, notice }: { callbackUrl: string; notice?: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, { step: "password" });
  const needsCode = state.step === "code";
  // Controlled, so React does not reset them after a failed attempt (the code step resubmits them).
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  return (
    <form action={action} className="space-y-4" noValidate={false}>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {notice && !state.error && <Alert tone="sky">{notice}</Alert>}
      {state.error && <Alert>{state.error}</Alert>}
      {/* The password step's fields stay in the form (hidden) while the code is asked for. */}
      <div className={needsCode ? "hidden" : "space-y-4"}>
        <Field
          id="email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          required={!needsCode}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus={!needsCode}
        />
        <Field
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required={!needsCode}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      {needsCode && (
        <Field
          id="code"
          name="code"
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          required
        />
      )}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : needsCode ? "Verify and sign in" : "Sign in"}
      </Button>
      {needsCode && (
        <p className="text-center text-sm">
          <a href="/sign-in" className="text-slate-600 underline underline-offset-2">
            Use a different account
          </a>
        </p>
      )}
      {!needsCode && (
        <p className="text-center text-sm">
          <Link className="font-medium text-indigo-700 underline-offset-2 hover:underline" href="/forgot-password">
            Forgot your password?
          </Link>
        </p>
      )}
      {!needsCode && (
        <p className="text-center text-sm text-slate-600">
          New to Adloom?{" "}
          <Link className="font-medium text-indigo-700 underline-offset-2 hover:underline" href="/sign-up">
            Start a 14-day free trial
          </Link>
        </p>
      )}
    </form>
  );
}
