"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { PLATFORM_LABEL } from "@/components/dashboard/ad-account-label";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { formatBytes, formatRelative } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { useEarlyFilePick } from "@/components/dashboard/use-early-file-pick";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section, TableHead } from "@/components/ui/misc";
import type { LibraryFolder } from "@/lib/read-models/library";
import type { Upload } from "@/lib/uploads/upload-schema";
import { uploadProgressAction } from "./actions";
import { ACCEPT, checkFile, MAX_FILES } from "./file-checks";
import { sendFile } from "./send-file";

type Sending = { key: string; name: string; size: number; progress: number; state: "sending" | "sent" | "rejected"; error?: string };
const STATUS_TONE = { processing: "amber", completed: "green", failed: "rose" } as const;

/**
 * The job's error in words a marketer reads: the platform by its name, the retry count as a
 * sentence, and the platform's internal notes (in parentheses) left to the API and the log.
 */
export function readableUploadError(u: Pick<Upload, "error" | "platform">): string | null {
  if (!u.error) return null;
  const tries = /gave up after (\d+) attempts/.exec(u.error)?.[1];
  let text = u.error.replace(/\s*\([^()]*\)/g, "").trim();
  for (const [id, label] of Object.entries(PLATFORM_LABEL)) text = text.replaceAll(id, label);
  text = text.replace(/ rejected the upload$/, " did not accept the file");
  if (!text) text = "The upload did not complete";
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${tries ? ` after ${tries} tries` : ""}. Retry it, or dismiss it and upload the file again.`;
}

function platformIds(u: Upload): string | null {
  const ids =
    u.platform === "platform_a"
      ? [u.platform_a.imageHash && `image hash ${u.platform_a.imageHash}`, u.platform_a.videoId && `video id ${u.platform_a.videoId}`]
      : [u.platform_b.imageId && `image id ${u.platform_b.imageId}`, u.platform_b.videoId && `video id ${u.platform_b.videoId}`];
  return ids.filter(Boolean).join(", ") || null;
}

export function UploadsWorkspace({
  folders,
  canUpload,
  role,
  mustPickFolder,
  initialFolderId,
}: {
  folders: LibraryFolder[];
  canUpload: boolean;
  role: string;
  mustPickFolder: boolean;
  /** The library folder the visitor came from ("Upload files" in a folder). */
  initialFolderId: string | null;
}) {
  const clock = useMemberClock();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [platform, setPlatform] = useState<"platform_a" | "platform_b">("platform_a");
  const [folderId, setFolderId] = useState<string>(
    initialFolderId && folders.some((f) => f.id === initialFolderId) ? initialFolderId : mustPickFolder ? (folders[0]?.id ?? "") : "",
  );
  const [dragging, setDragging] = useState(false);
  const [sending, setSending] = useState<Sending[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  const uploads = useQuery({
    queryKey: ["uploads"],
    queryFn: () => apiFetch<{ uploads: Upload[] }>("/api/v1/uploads?limit=100"),
    // Poll while any job is still running; stop when everything has finished.
    refetchInterval: (query) => (query.state.data?.uploads.some((u) => u.status === "processing") ? 1000 : false),
  });
  // The attempt each running job is on, and the creative each completed one made (not part of the Upload resource).
  const jobIds = (uploads.data?.uploads ?? []).map((u) => u.id);
  const running = uploads.data?.uploads.some((u) => u.status === "processing") ?? false;
  const progress = useQuery({
    // Keyed by each job's status too: a job seen completed is asked for again once, so its creative link shows even
    // when the last poll ran just before it finished (polling stops with the last running job).
    queryKey: ["upload-progress", (uploads.data?.uploads ?? []).map((u) => `${u.id}:${u.status}`).join(",")],
    queryFn: async () => {
      const result = await uploadProgressAction(jobIds);
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    enabled: jobIds.length > 0,
    refetchInterval: running ? 1000 : false,
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: "retry" | "dismiss" }) =>
      apiFetch(`/api/v1/uploads/${encodeURIComponent(id)}`, { method: action === "retry" ? "POST" : "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["uploads"] }),
    onError: (e) => setProblem(e instanceof ApiError ? e.message : "That did not work. Please try again."),
  });

  const setOne = (key: string, patch: Partial<Sending>) => setSending((list) => list.map((s) => (s.key === key ? { ...s, ...patch } : s)));

  const start = (files: File[]) => {
    setProblem(null);
    if (!canUpload) return setProblem("Your role cannot upload files. Ask an owner or admin.");
    if (files.length === 0) return;
    if (files.length > MAX_FILES) return setProblem(`Choose at most ${MAX_FILES} files at a time (you chose ${files.length}).`);
    const batch = files.map((file, i) => ({ file, key: `${Date.now()}-${i}-${file.name}`, error: checkFile(file) }));
    setSending((list) => [
      ...batch.map(({ file, key, error }) => ({
        key,
        name: file.name,
        size: file.size,
        progress: 0,
        state: error ? ("rejected" as const) : ("sending" as const),
        error: error ?? undefined,
      })),
      ...list,
    ]);
    // Two files at a time keeps the link busy without starving each file's progress.
    const queue = batch.filter((b) => !b.error);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { key, file } = next;
        const result = await sendFile(file, { platform, folderId: folderId || null }, (p) => setOne(key, { progress: p })).promise;
        if (result.ok) {
          // From here the jobs table shows the file: the list keeps only what is still on its way or was refused.
          // The list's first load may still be in flight, begun before this upload existed: an invalidation would
          // join that request (TanStack Query dedupes a fetch of a query without data) and the row would never
          // show. Cancelled first, the list is fetched again.
          await queryClient.cancelQueries({ queryKey: ["uploads"] });
          await queryClient.invalidateQueries({ queryKey: ["uploads"] });
          setSending((list) => list.filter((s) => s.key !== key));
        } else setOne(key, { state: "rejected", error: result.error });
      }
    };
    void Promise.all([worker(), worker()]);
  };

  useEarlyFilePick(inputRef, start);

  const list = uploads.data?.uploads ?? [];
  return (
    <div className="space-y-8">
      <Card className="p-6">
        <div className="mb-4 grid gap-4 sm:grid-cols-2 lg:max-w-2xl">
          <SelectField id="upload-platform" label="Push to" value={platform} onChange={(e) => setPlatform(e.target.value as typeof platform)}>
            <option value="platform_a">{PLATFORM_LABEL.platform_a} ad account</option>
            <option value="platform_b">{PLATFORM_LABEL.platform_b} ad account</option>
          </SelectField>
          <SelectField id="upload-folder" label="Library folder" value={folderId} onChange={(e) => setFolderId(e.target.value)}>
            {!mustPickFolder && <option value="">Library root</option>}
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </SelectField>
        </div>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone adds dragging to the file picker button inside it, which keyboards use */}
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            start([...e.dataTransfer.files]);
          }}
          className={`flex flex-col items-center justify-center rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors md:px-6 md:py-12 ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50"}`}
        >
          <p className="text-base font-medium text-slate-900">
            <span className="hidden md:inline">Drop images and videos here</span>
            <span className="md:hidden">Add images and videos from your device</span>
          </p>
          <p className="mt-1 text-sm text-slate-600">Up to {MAX_FILES} files at a time · images up to 30 MB · videos up to 200 MB</p>
          <Button
            className="mt-4 w-full sm:w-auto"
            onClick={() => inputRef.current?.click()}
            disabled={!canUpload}
            aria-describedby={canUpload ? undefined : "upload-not-allowed"}
          >
            Choose files
          </Button>
          {!canUpload && (
            <p id="upload-not-allowed" data-testid="upload-not-allowed" className="mt-2 text-sm text-slate-700">
              Your role ({role}) can view uploads but not add, retry or dismiss them. Ask an owner or admin to make you an editor.
            </p>
          )}
          <input
            ref={inputRef}
            data-testid="upload-input"
            type="file"
            multiple
            accept={ACCEPT}
            className="sr-only"
            // The visible "Choose files" button opens it: one tab stop, not a second invisible one.
            tabIndex={-1}
            aria-label="Choose files to upload"
            onChange={(e) => {
              start([...(e.target.files ?? [])]);
              e.target.value = "";
            }}
          />
        </div>
        {problem && (
          <div className="mt-4">
            <Alert>{problem}</Alert>
          </div>
        )}
        {sending.length > 0 && (
          <div className="mt-6 flex items-center justify-between gap-3">
            <h3 className="text-sm font-medium text-slate-800">Sending</h3>
            {sending.some((s) => s.state === "rejected") && (
              <Button size="sm" variant="ghost" onClick={() => setSending((list) => list.filter((s) => s.state !== "rejected"))}>
                Clear refused files
              </Button>
            )}
          </div>
        )}
        {sending.length > 0 && (
          <ul className="mt-2 space-y-2" aria-label="Files being sent">
            {sending.map((s) => (
              <li key={s.key} data-testid="sending-file" className="rounded-md border border-slate-200 p-3">
                <div className="flex items-center justify-between gap-3 text-sm">
                  <span className="truncate font-medium text-slate-900">{s.name}</span>
                  <span className="shrink-0 text-xs text-slate-600">
                    {formatBytes(s.size)} · {s.state === "sending" ? `${Math.round(s.progress * 100)}%` : s.state === "sent" ? "Sent" : "Not uploaded"}
                  </span>
                </div>
                {s.state === "rejected" ? (
                  <p className="mt-1 text-xs text-rose-700">{s.error}</p>
                ) : (
                  <div
                    className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-100"
                    role="progressbar"
                    aria-label={`${s.name} upload progress`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(s.progress * 100)}
                  >
                    <div
                      className={`h-full rounded-full transition-[width] ${s.state === "sent" ? "bg-emerald-500" : "bg-indigo-600"}`}
                      style={{ width: `${Math.round(s.progress * 100)}%` }}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Section id="jobs" title="Upload jobs">
        {uploads.isError && <Alert>{uploads.error instanceof ApiError ? uploads.error.message : "Could not load uploads."}</Alert>}
        {uploads.isSuccess && list.length === 0 && (
          <EmptyState title="No uploads yet">Files you upload appear here while they are pushed to your ad account.</EmptyState>
        )}
        {list.length > 0 && (
          <Card className="overflow-x-auto">
            <table className="stack-table w-full text-left text-sm">
              <TableHead columns={["File", "Status", "Ad account", "Started"]} actions />
              <tbody className="divide-y divide-slate-100">
                {list.map((u) => (
                  <tr key={u.id} data-testid="upload-row" data-status={u.status} data-file={u.fileName}>
                    <td data-label="File" className="max-w-xs px-4 py-3">
                      <p className="truncate font-medium text-slate-900" title={u.fileName}>
                        {u.fileName}
                      </p>
                      <p className="text-xs text-slate-500">
                        {u.kind} · {formatBytes(u.sizeBytes)}
                      </p>
                    </td>
                    <td data-label="Status" className="px-4 py-3">
                      <Badge tone={STATUS_TONE[u.status]}>{u.status === "processing" ? "Processing…" : u.status}</Badge>
                      {u.status === "processing" && (progress.data?.uploads[u.id]?.attempt ?? 0) > 0 && (
                        <p data-testid="upload-attempt" className="mt-1 text-xs text-slate-600">
                          Attempt {progress.data!.uploads[u.id]!.attempt} of {progress.data!.maxAttempts}
                          {progress.data!.uploads[u.id]!.attempt > 1 ? ": the ad account refused the last try, trying again" : ""}
                        </p>
                      )}
                      {u.status === "completed" && progress.data?.uploads[u.id]?.creativeId && (
                        <p className="mt-1 text-xs">
                          <Link
                            href={`/dashboard/library/${progress.data.uploads[u.id]!.creativeId}`}
                            prefetch={false}
                            className="font-medium text-indigo-700 underline-offset-2 hover:underline"
                          >
                            Open in library
                          </Link>
                        </p>
                      )}
                      {u.error && (
                        <p data-testid="upload-error" className="mt-1 max-w-xs text-xs text-rose-700">
                          {readableUploadError(u)}
                        </p>
                      )}
                    </td>
                    <td data-label="Ad account" className="px-4 py-3 text-slate-700">
                      {PLATFORM_LABEL[u.platform]}
                      {platformIds(u) && (
                        <p data-testid="platform-ids" className="font-mono text-xs text-slate-500">
                          {platformIds(u)}
                        </p>
                      )}
                    </td>
                    <td data-label="Started" className="whitespace-nowrap px-4 py-3 text-slate-700" suppressHydrationWarning>
                      {formatRelative(u.createdAt, Date.now(), clock)}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-right">
                      {u.status === "failed" && (
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => act.mutate({ id: u.id, action: "retry" })}
                          disabled={act.isPending || !canUpload}
                          aria-describedby={canUpload ? undefined : "upload-not-allowed"}
                        >
                          Retry
                        </Button>
                      )}
                      {u.status !== "processing" && (
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => act.mutate({ id: u.id, action: "dismiss" })}
                          disabled={act.isPending || !canUpload}
                          aria-describedby={canUpload ? undefined : "upload-not-allowed"}
                          aria-label={`Dismiss ${u.fileName}`}
                        >
                          Dismiss
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        )}
        {list.some((u) => u.status === "completed") && (
          <p className="mt-3 text-sm text-slate-600">
            Completed files are in the{" "}
            <Link href="/dashboard/library" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
              library
            </Link>
            .
          </p>
        )}
      </Section>
    </div>
  );
}
