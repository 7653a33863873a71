"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Card, Section } from "@/components/ui/misc";
import { signOutEverywhereAction } from "./actions";

/** Ends every dashboard session of this account, this one included. */
export function SignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  const [pending, startTransition] = useTransition();
  return (
    <Card className="max-w-2xl p-6">
      <Section id="sessions" title="Sessions">
        <p className="text-sm text-slate-600">
          Signed in on a computer you no longer use? Signing out everywhere ends every session of your account, on every device and browser, this one included.
          API keys keep working.
        </p>
        <div className="mt-3">
          <Button variant="secondary" onClick={() => setConfirming(true)} disabled={pending}>
            Sign out everywhere
          </Button>
        </div>
        <ConfirmDialog
          open={confirming}
          busy={pending}
          title="Sign out everywhere?"
          confirmLabel="Sign out everywhere"
          onCancel={() => setConfirming(false)}
          onConfirm={() => startTransition(() => signOutEverywhereAction())}
        >
          Every device signed in to your account will have to sign in again.
        </ConfirmDialog>
      </Section>
    </Card>
  );
}
