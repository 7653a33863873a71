"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert } from "@/components/ui/misc";
import { cancelPlan, subscribePro } from "./actions";

export function PlanActions({ onPro }: { onPro: boolean }) {
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
        Every API key of this workspace will answer 402 until you subscribe again. Your library, keys and settings are kept.
      </ConfirmDialog>
    </div>
  );
}
