"use client";
import { useId, useRef, useState } from "react";
import { apiFetch, ApiError } from "@/components/dashboard/api";
import { callTool } from "@/components/dashboard/tool-call";
import { useEarlyFilePick } from "@/components/dashboard/use-early-file-pick";
import { sendFile } from "../../uploads/send-file";

/** add_creative_version takes the bytes inline up to this size (TOOL_UPLOAD_MAX_BYTES); larger files go as an upload with versionOf. */
const INLINE_MAX_BYTES = 512 * 1024;

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Waits for a version upload's job to add the version, or throws why it failed. */
async function finishedUpload(id: string): Promise<void> {
  for (;;) {
    const upload = await apiFetch<{ status: string; error?: string | null }>(`/api/v1/uploads/${encodeURIComponent(id)}`);
    if (upload.status === "completed") return;
    if (upload.status === "failed") throw new Error(upload.error ? `The upload failed: ${upload.error}` : "The upload failed.");
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * "Upload a new version" on the creative page: the file becomes the creative's next version, through
 * add_creative_version (the same tool the API serves) when small, else as an upload sent with
 * versionOf, whose job adds the version: either way no second creative appears in the library.
 */
export function VersionUpload({
  creativeId,
  kind,
  allowed,
  onUploaded,
}: {
  creativeId: string;
  kind: "image" | "video";
  allowed: boolean;
  onUploaded: () => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: boolean }>({ busy: false, message: null, error: false });

  const upload = async (file: File) => {
    setState({ busy: true, message: `Uploading ${file.name}…`, error: false });
    try {
      if (file.size <= INLINE_MAX_BYTES) {
        const args = { creativeId, file: { fileName: file.name, contentBase64: base64Of(new Uint8Array(await file.arrayBuffer())) } };
        const { version } = await callTool("add_creative_version", args);
        setState({ busy: false, message: `Version ${version.number} uploaded: it is now the current version.`, error: false });
      } else {
        const sent = await sendFile(file, { platform: "platform_a", folderId: null, versionOf: creativeId }, () => undefined).promise;
        if (!sent.ok) throw new Error(sent.error);
        await finishedUpload(sent.uploadId);
        setState({ busy: false, message: "New version uploaded: it is now the current version.", error: false });
      }
      onUploaded();
    } catch (e) {
      setState({ busy: false, message: e instanceof ApiError || e instanceof Error ? e.message : "The version could not be uploaded.", error: true });
    }
  };

  useEarlyFilePick(inputRef, ([file]) => {
    if (file && allowed) void upload(file);
  });

  return (
    <div className="space-y-1 text-sm">
      <label htmlFor={`${id}-file`} className="block font-medium text-slate-800">
        Upload a new version
      </label>
      <input
        id={`${id}-file`}
        ref={inputRef}
        type="file"
        accept={kind === "image" ? "image/*" : "video/*"}
        disabled={!allowed || state.busy}
        aria-describedby={allowed ? undefined : `${id}-reason`}
        data-testid="version-upload-input"
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 disabled:opacity-60"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) void upload(file);
        }}
      />
      {!allowed && (
        <p id={`${id}-reason`} className="text-slate-700">
          Uploading a version needs &quot;uploads.write&quot; (editors and above).
        </p>
      )}
      {state.message && (
        <p role={state.error ? "alert" : "status"} data-testid="version-upload-status" className={state.error ? "text-rose-700" : "text-slate-700"}>
          {state.message}
        </p>
      )}
    </div>
  );
}
