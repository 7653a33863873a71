"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert } from "@/components/ui/misc";
import { cancelPlan, subscribePro } from "./actions";

/** `trialLeft`: the free trial the workspace returns to when Pro is cancelled (null: none left). */
export function PlanActions({ onPro, trialLeft }: { onPro: boolean; trialLeft: { endsOn: string; days: number } | null }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const run = (fn: typeof subscribePro) =>
    start(async () => {
      const result = await fn();
      setError(result.ok ? null : result.error);
      setConfirming(false);
    });
  return (
    <div className="space-y-3">
      {error && <Alert>{error}</Alert>}
      {onPro ? (
        <Button variant="secondary" onClick={() => setConfirming(true)} disabled={pending}>
          Cancel Pro plan
        </Button>
      ) : (
        <Button onClick={() => run(subscribePro)} disabled={pending}>
          {pending ? "Switching…" : "Switch to Pro"}
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title="Cancel the Pro plan?"
        confirmLabel="Cancel plan"
        busy={pending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => run(cancelPlan)}
      >
        {trialLeft ? (
          <>
            The workspace goes back to its free trial, which ends on {trialLeft.endsOn} ({trialLeft.days} {trialLeft.days === 1 ? "day" : "days"} left): the
            dashboard keeps working, but API keys, the REST API and webhooks answer 402 until you subscribe again.
          </>
        ) : (
          <>The dashboard closes and every API key of this workspace answers 402 until you subscribe again.</>
        )}{" "}
        Your library, keys and settings are kept.
      </ConfirmDialog>
    </div>
  );
}
