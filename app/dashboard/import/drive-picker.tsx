"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/* The Google Picker's browser API (https://developers.google.com/workspace/drive/picker), loaded on demand. */
type PickerDoc = { id: string; name?: string };
type PickerData = { action: string; docs?: PickerDoc[] };
declare global {
  interface Window {
    gapi?: { load(name: string, callback: () => void): void };
    google?: any;
  }
}

const PICKER_SCRIPT = "https://apis.google.com/js/api.js";

/** Loads Google's script once per page: the page's <script> element is the memo (no module state). */
function loadPicker(): Promise<void> {
  if (window.google?.picker) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const ready = () => window.gapi!.load("picker", () => resolve());
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${PICKER_SCRIPT}"]`);
    if (existing && window.gapi) return ready();
    const script = existing ?? document.createElement("script");
    script.addEventListener("load", ready, { once: true });
    script.addEventListener(
      "error",
      () => {
        script.remove(); // the next click tries again
        reject(new Error("The Google Picker could not be loaded"));
      },
      { once: true },
    );
    if (!existing) {
      script.src = PICKER_SCRIPT;
      script.async = true;
      document.head.appendChild(script);
    }
  });
}

/**
 * "Pick from Google Drive": with the drive.file scope, picking is how a file (or a folder) becomes
 * visible to Adloom; the picked ids go to import_files like browsed ones.
 */
export function DrivePickerButton({
  connectionId,
  onPicked,
  onError,
}: {
  connectionId: string;
  onPicked: (ids: string[]) => void;
  onError: (e: unknown) => void;
}) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      const res = await fetch(`/api/import/drive-picker?connectionId=${encodeURIComponent(connectionId)}`, { credentials: "same-origin" });
      const body = await res.json();
      if (!res.ok) throw new Error(body?.error?.message ?? "The Picker could not be opened");
      await loadPicker();
      const picker = window.google.picker;
      const view = new picker.DocsView(picker.ViewId.DOCS).setIncludeFolders(true).setSelectFolderEnabled(true);
      let builder = new picker.PickerBuilder()
        .addView(view)
        .enableFeature(picker.Feature.MULTISELECT_ENABLED)
        .setOAuthToken(body.accessToken)
        .setDeveloperKey(body.apiKey)
        .setCallback((data: PickerData) => {
          if (data.action === picker.Action.PICKED && data.docs?.length) onPicked(data.docs.map((d) => d.id));
        });
      if (body.appId) builder = builder.setAppId(body.appId);
      builder.build().setVisible(true);
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" disabled={busy} onClick={() => void open()}>
      {busy ? "Opening Google Drive…" : "Pick from Google Drive"}
    </Button>
  );
}
