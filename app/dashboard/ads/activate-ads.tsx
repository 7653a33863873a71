"use client";
import { useState } from "react";
import { ApiError } from "@/components/dashboard/api";
import type { ToolOutput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert } from "@/components/ui/misc";
import { money, refusedAds, tool } from "./ads-api";

type Activation = ToolOutput<"activate_ads">;

/** Activates ads after a confirmation that states the daily spend being switched on (asked of the platform first, with dryRun). */
export function ActivateAdsButton({ adIds, onDone }: { adIds: string[]; onDone: () => void | Promise<unknown> }) {
  const [preview, setPreview] = useState<Activation | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = `Activate ${adIds.length} ad${adIds.length === 1 ? "" : "s"}`;

  const ask = async () => {
    setBusy(true);
    try {
      setPreview(await tool("activate_ads", { adIds, dryRun: true }));
      setError(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Could not prepare the activation.");
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    setBusy(true);
    try {
      const { failed } = await tool("activate_ads", { adIds });
      setPreview(null);
      await onDone();
      if (failed.length) setError(refusedAds("activated", failed));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Activation failed.");
      setPreview(null);
    } finally {
      setBusy(false);
    }
  };
  const spend = preview?.dailySpendSwitchedOn.map((s) => money(s.amountMinor, s.currency)).join(" + ") ?? "";

  return (
    <>
      <Button size="sm" onClick={ask} disabled={busy}>
        {label}
      </Button>
      {error && <Alert>{error}</Alert>}
      <ConfirmDialog open={preview !== null} title={label} confirmLabel="Activate and spend" onCancel={() => setPreview(null)} onConfirm={confirm} busy={busy}>
        {preview && preview.dailySpendSwitchedOn.length > 0 ? (
          <p data-testid="activation-spend">
            This switches on <strong>{spend} per day</strong> of spend ({preview.adSetsSwitchedOn.map((s) => s.name).join(", ")}).
          </p>
        ) : (
          <p data-testid="activation-spend">These ads join ad sets that are already spending; the daily budget does not change.</p>
        )}
      </ConfirmDialog>
    </>
  );
}
