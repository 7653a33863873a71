"use client";
import { formatDateTime } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { ApiError } from "@/components/dashboard/api";
import { callTool, type ToolOutput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { Field, SelectField, TextArea } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section, TableHead } from "@/components/ui/misc";
import type { OAuthStorageSetup } from "@/lib/dashboard/storage-oauth";
import { DrivePickerButton } from "./drive-picker";

type Connection = ToolOutput<"list_storage_connections">["connections"][number];
type Run = ToolOutput<"list_import_runs">["runs"][number];
type Folder = { id: string; name: string; parentId: string | null };

const message = (e: unknown) => (e instanceof ApiError ? e.message : "That did not work. Please try again.");
const PROVIDER_LABEL: Record<Connection["provider"], string> = { s3: "S3 bucket", url: "Public URLs", dropbox: "Dropbox", google_drive: "Google Drive" };

export function ImportWorkspace({
  folders,
  canImport,
  mustPickFolder,
  oauth,
  connectedId,
  connectError,
}: {
  folders: Folder[];
  canImport: boolean;
  mustPickFolder: boolean;
  oauth: OAuthStorageSetup;
  connectedId: string | null;
  connectError: string | null;
}) {
  const clock = useMemberClock();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(connectError);
  const [notice, setNotice] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState<Connection | null>(null);
  const connections = useQuery({ queryKey: ["storage-connections"], queryFn: () => callTool("list_storage_connections"), enabled: canImport });
  const watched = useQuery({ queryKey: ["watched-folders"], queryFn: () => callTool("list_watched_folders"), enabled: canImport });
  const runs = useQuery({
    queryKey: ["import-runs"],
    queryFn: () => callTool("list_import_runs", { limit: 20 }),
    enabled: canImport,
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === "running") ? 2000 : false),
  });
  const justConnected = connectedId ? connections.data?.connections.find((c) => c.id === connectedId) : undefined;
  useEffect(() => {
    if (justConnected) setNotice(`Connected ${justConnected.name}.`);
  }, [justConnected]);
  const refresh = () => Promise.all(["storage-connections", "watched-folders", "import-runs"].map((k) => queryClient.invalidateQueries({ queryKey: [k] })));
  const done = (text: string) => {
    setError(null);
    setNotice(text);
    void refresh();
  };
  const failed = (e: unknown) => {
    setNotice(null);
    setError(message(e));
  };

  const disconnect = useMutation({
    mutationFn: (c: Connection) => callTool("disconnect_storage", { connectionId: c.id }),
    onSuccess: ({ connection }) => {
      if (browsing?.id === connection.id) setBrowsing(null);
      done(`${connection.name} was disconnected; its stored key is deleted.`);
    },
    onError: failed,
  });
  const sync = useMutation({
    mutationFn: (id: string) => callTool("sync_watched_folder", { watchedFolderId: id }),
    onSuccess: ({ run }) => done(run.itemCount ? `Syncing ${run.itemCount} new file${run.itemCount === 1 ? "" : "s"}.` : "Nothing new in the folder."),
    onError: failed,
  });
  const unwatch = useMutation({
    mutationFn: (id: string) => callTool("unwatch_storage_folder", { watchedFolderId: id }),
    onSuccess: () => done("The folder is no longer watched."),
    onError: failed,
  });

  if (!canImport) return <Alert tone="amber">Your role cannot import files. Ask an owner, admin or editor.</Alert>;
  const connectionName = (id: string) => connections.data?.connections.find((c) => c.id === id)?.name ?? id;

  return (
    <div className="space-y-8">
      {error && <Alert>{error}</Alert>}
      {notice && <Alert tone="green">{notice}</Alert>}

      <Section id="connections" title="Connections">
        <Card>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Storage connections, scrollable">
            <table aria-label="Storage connections" className="w-full text-left text-sm">
              <TableHead columns={["Connection", "Status"]} actions />
              <tbody className="divide-y divide-slate-100">
                {connections.data?.connections.map((c) => (
                  <tr key={c.id}>
                    <td className="px-4 py-3">
                      <span className="font-medium text-slate-900">{c.name}</span>
                      <p className="mt-0.5 text-xs text-slate-600">
                        {PROVIDER_LABEL[c.provider]}
                        {typeof c.settings.endpoint === "string" ? ` · ${c.settings.endpoint}` : ""}
                      </p>
                    </td>
                    <td className="px-4 py-3">
                      {c.status === "active" ? <Badge tone="green">Active</Badge> : <Badge>Disconnected</Badge>}
                      {c.status === "revoked" && c.statusReason && <p className="mt-1 max-w-xs text-xs text-slate-600">{c.statusReason}</p>}
                    </td>
                    <td className="px-4 py-3 text-right">
                      {c.status === "active" && (
                        <div className="flex flex-wrap justify-end gap-2">
                          <Button
                            size="sm"
                            variant="secondary"
                            onClick={() => setBrowsing(c)}
                            aria-label={`${c.provider === "url" ? "Import links" : "Browse"} ${c.name}`}
                          >
                            {c.provider === "url" ? "Import links" : "Browse"}
                          </Button>
                          <Button
                            size="sm"
                            variant="danger-ghost"
                            disabled={disconnect.isPending}
                            onClick={() => disconnect.mutate(c)}
                            aria-label={`Disconnect ${c.name}`}
                          >
                            Disconnect
                          </Button>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {connections.data?.connections.length === 0 && (
            <EmptyState title="No storage connected yet">Connect Google Drive, Dropbox, a bucket or public links below to import from them.</EmptyState>
          )}
        </Card>
        <OAuthConnect oauth={oauth} />
        <ConnectForm onConnected={(c) => done(`Connected ${c.name}.`)} onError={failed} />
      </Section>

      {browsing && (
        <Section id="browse" title={`Import from ${browsing.name}`}>
          <Browser
            key={browsing.id}
            connection={browsing}
            picker={oauth.picker !== null}
            folders={folders}
            mustPickFolder={mustPickFolder}
            onStarted={(run) => done(`Importing ${run.itemCount} file${run.itemCount === 1 ? "" : "s"}.`)}
            onWatched={(path) => done(`Watching ${path || "the top folder"}: new files are imported every quarter hour.`)}
            onError={failed}
          />
        </Section>
      )}

      <Section id="watched" title="Watched folders">
        <Card>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Watched folders, scrollable">
            <table aria-label="Watched folders" className="w-full text-left text-sm">
              <TableHead columns={["Folder", "Last sync"]} actions />
              <tbody className="divide-y divide-slate-100">
                {watched.data?.watchedFolders.map((w) => (
                  <tr key={w.id}>
                    <td className="px-4 py-3">
                      <span className="font-mono text-xs text-slate-900">{w.sourcePath || "/"}</span>
                      <p className="mt-0.5 text-xs text-slate-600">{connectionName(w.connectionId)}</p>
                    </td>
                    <td className="px-4 py-3 text-slate-700">{w.lastSyncAt ? formatDateTime(w.lastSyncAt, clock) : "Not yet"}</td>
                    <td className="px-4 py-3 text-right">
                      <div className="flex flex-wrap justify-end gap-2">
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={sync.isPending}
                          onClick={() => sync.mutate(w.id)}
                          aria-label={`Sync now ${w.sourcePath}`}
                        >
                          Sync now
                        </Button>
                        <Button
                          size="sm"
                          variant="danger-ghost"
                          disabled={unwatch.isPending}
                          onClick={() => unwatch.mutate(w.id)}
                          aria-label={`Stop watching ${w.sourcePath}`}
                        >
                          Stop watching
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {watched.data?.watchedFolders.length === 0 && <EmptyState title="No watched folders">Browse a connection and choose “Watch this folder”.</EmptyState>}
        </Card>
      </Section>

      <Section id="runs" title="Import runs">
        <Card>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Import runs, scrollable">
            <table aria-label="Import runs" className="w-full text-left text-sm">
              <TableHead columns={["Run", "Status", "Imported", "Skipped", "Failed", "Near-duplicates"]} />
              <tbody className="divide-y divide-slate-100">
                {runs.data?.runs.map((r) => (
                  <RunRow key={r.id} run={r} connectionName={connectionName(r.connectionId)} />
                ))}
              </tbody>
            </table>
          </div>
          {runs.data?.runs.length === 0 && <EmptyState title="No imports yet" />}
        </Card>
      </Section>
    </div>
  );
}

function RunRow({ run, connectionName }: { run: Run; connectionName: string }) {
  const clock = useMemberClock();
  return (
    <tr>
      <td className="px-4 py-3">
        <span className="font-medium text-slate-900">{run.kind === "sync" ? "Folder sync" : "Import"}</span>
        <p className="mt-0.5 text-xs text-slate-600">
          {connectionName} · {formatDateTime(run.createdAt, clock)} · {run.itemCount} file{run.itemCount === 1 ? "" : "s"}
        </p>
      </td>
      <td className="px-4 py-3">
        {run.status === "running" ? (
          // Once every file has arrived the run checks near-duplicates and starts the uploads' jobs.
          <Badge tone="sky">{run.transferredAt ? "Filing" : "Transferring"}</Badge>
        ) : run.status === "completed" ? (
          <Badge tone="green">Done</Badge>
        ) : (
          <Badge tone="rose">Failed</Badge>
        )}
      </td>
      <td className="px-4 py-3 tabular-nums">{run.importedCount}</td>
      <td className="px-4 py-3 tabular-nums">{run.skippedCount}</td>
      <td className="px-4 py-3 tabular-nums">{run.failedCount}</td>
      <td className="px-4 py-3 tabular-nums">{run.duplicateCount}</td>
    </tr>
  );
}

const OAUTH_PROVIDERS = [
  { provider: "google_drive", label: "Google Drive", hint: "Only the files you pick or import are shared with Adloom (drive.file)." },
  { provider: "dropbox", label: "Dropbox", hint: "Read-only: Adloom reads files and folders, never changes them." },
] as const;

/** Google Drive and Dropbox connect by OAuth: a link to the provider's consent page through our start route. */
function OAuthConnect({ oauth }: { oauth: OAuthStorageSetup }) {
  return (
    <div className="mt-4 grid gap-3 sm:grid-cols-2" role="group" aria-label="Connect by signing in">
      {OAUTH_PROVIDERS.map(({ provider, label, hint }) => (
        <div key={provider} className="rounded-md border border-slate-200 p-3">
          {oauth[provider] ? (
            <a
              href={`/api/import/oauth/${provider}/start`}
              className="inline-flex items-center rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Connect {label}
            </a>
          ) : (
            <p className="text-sm font-medium text-slate-800">{label}</p>
          )}
          <p className="mt-1 text-xs text-slate-600">
            {oauth[provider] ? hint : `Not set up on this server: the operator adds the ${label} app (docs/import.md).`}
          </p>
        </div>
      ))}
    </div>
  );
}

function ConnectForm({ onConnected, onError }: { onConnected: (c: Connection) => void; onError: (e: unknown) => void }) {
  const [provider, setProvider] = useState<"s3" | "url">("s3");
  const connect = useMutation({
    mutationFn: (args: Parameters<typeof callTool<"connect_storage">>[1]) => callTool("connect_storage", args!),
    onSuccess: ({ connection }) => onConnected(connection),
    onError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? "").trim();
      return value === "" ? undefined : value;
    };
    if (provider === "url") connect.mutate({ provider: "url", name: text("name") });
    else
      connect.mutate({
        provider: "s3",
        name: text("name"),
        bucket: text("bucket"),
        endpoint: text("endpoint"),
        region: text("region"),
        accessKeyId: text("accessKeyId"),
        secretAccessKey: text("secretAccessKey"),
      });
  };
  return (
    <form onSubmit={submit} aria-label="Connect storage" className="mt-4 grid gap-3 sm:grid-cols-2">
      <SelectField id="connect-provider" label="Storage" value={provider} onChange={(e) => setProvider(e.target.value as "s3" | "url")}>
        <option value="s3">S3-compatible bucket</option>
        <option value="url">Public URLs</option>
      </SelectField>
      <Field id="connect-name" name="name" label="Name (optional)" autoComplete="off" />
      {provider === "s3" && (
        <>
          <Field id="connect-bucket" name="bucket" label="Bucket" required autoComplete="off" />
          <Field id="connect-endpoint" name="endpoint" label="Endpoint (optional)" hint="For R2, MinIO, Wasabi…; empty for AWS" autoComplete="off" />
          <Field id="connect-region" name="region" label="Region (optional)" placeholder="us-east-1" autoComplete="off" />
          <Field id="connect-key" name="accessKeyId" label="Access key id" required autoComplete="off" />
          <Field
            id="connect-secret"
            name="secretAccessKey"
            label="Secret access key"
            type="password"
            required
            autoComplete="off"
            hint="Stored encrypted; a read-only key is enough"
          />
        </>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? "Connecting…" : "Connect"}
        </Button>
      </div>
    </form>
  );
}

function Browser({
  connection,
  picker,
  folders,
  mustPickFolder,
  onStarted,
  onWatched,
  onError,
}: {
  connection: Connection;
  picker: boolean;
  folders: Folder[];
  mustPickFolder: boolean;
  onStarted: (run: Run) => void;
  onWatched: (path: string) => void;
  onError: (e: unknown) => void;
}) {
  // Folders opened, top first: Drive folders are ids, so "up" is where we came from, not a path's parent.
  const [trail, setTrail] = useState<{ id: string; name: string }[]>([]);
  const path = trail.at(-1)?.id ?? "";
  const [picked, setPicked] = useState<string[]>([]);
  const [links, setLinks] = useState("");
  const [folderId, setFolderId] = useState(mustPickFolder ? (folders[0]?.id ?? "") : "");
  const isUrl = connection.provider === "url";
  const listing = useQuery({
    queryKey: ["browse", connection.id, path],
    queryFn: () => callTool("browse_storage", { connectionId: connection.id, path }),
    enabled: !isUrl,
  });
  const target = folderId ? { folderId } : {};
  const importFiles = useMutation({
    mutationFn: (paths: string[]) => callTool("import_files", { connectionId: connection.id, paths, ...target }),
    onSuccess: ({ run }) => {
      setPicked([]);
      setLinks("");
      onStarted(run);
    },
    onError,
  });
  const watch = useMutation({
    mutationFn: () => callTool("watch_storage_folder", { connectionId: connection.id, path, ...target }),
    onSuccess: () => onWatched(trail.map((t) => t.name).join("/")),
    onError,
  });
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));

  return (
    <Card className="space-y-4 p-4">
      <SelectField id="import-folder" label="Library folder" value={folderId} onChange={(e) => setFolderId(e.target.value)} className="space-y-1 sm:max-w-xs">
        {!mustPickFolder && <option value="">Library root</option>}
        {folders.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </SelectField>
      {isUrl ? (
        <div className="space-y-2">
          <label htmlFor="import-links" className="block text-sm font-medium text-slate-800">
            Links, one per line
          </label>
          <TextArea id="import-links" rows={4} value={links} onChange={(e) => setLinks(e.target.value)} placeholder="https://cdn.example.com/hero.png" />
          <Button
            disabled={importFiles.isPending || links.trim() === ""}
            onClick={() =>
              importFiles.mutate(
                links
                  .split("\n")
                  .map((l) => l.trim())
                  .filter(Boolean),
              )
            }
          >
            Import links
          </Button>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-slate-600">Folder:</span>
            <span className="break-all font-mono text-xs text-slate-900">/{trail.map((t) => t.name).join("/")}</span>
            {path && (
              <Button size="sm" variant="ghost" onClick={() => setTrail((t) => t.slice(0, -1))}>
                Up one level
              </Button>
            )}
          </div>
          {listing.isError && <Alert>{message(listing.error)}</Alert>}
          <ul aria-label="Files and folders" className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {listing.data?.entries.map((e) => (
              <li key={e.id} className="flex min-w-0 items-center gap-3 px-3 py-2 text-sm">
                {e.isFolder ? (
                  <button
                    type="button"
                    className="min-w-0 truncate font-medium text-indigo-700 hover:underline"
                    onClick={() => setTrail((t) => [...t, { id: e.id, name: e.name }])}
                  >
                    {e.name}/
                  </button>
                ) : (
                  <label className="flex min-w-0 flex-1 items-center gap-2">
                    <input type="checkbox" checked={picked.includes(e.id)} onChange={() => toggle(e.id)} />
                    <span className="min-w-0 truncate">{e.name}</span>
                    <span className="ml-auto shrink-0 text-xs text-slate-600">
                      {e.sizeBytes === null ? "" : `${Math.max(1, Math.round(e.sizeBytes / 1024))} KB`}
                    </span>
                  </label>
                )}
              </li>
            ))}
            {listing.data?.entries.length === 0 && <li className="px-3 py-2 text-sm text-slate-600">This folder is empty.</li>}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button disabled={importFiles.isPending || picked.length === 0} onClick={() => importFiles.mutate(picked)}>
              Import {picked.length || ""} selected
            </Button>
            <Button variant="secondary" disabled={importFiles.isPending} onClick={() => importFiles.mutate([path || "/"])}>
              Import whole folder
            </Button>
            <Button variant="secondary" disabled={watch.isPending} onClick={() => watch.mutate()}>
              Watch this folder
            </Button>
            {connection.provider === "google_drive" && picker && (
              <DrivePickerButton connectionId={connection.id} onPicked={(ids) => importFiles.mutate(ids)} onError={onError} />
            )}
          </div>
        </>
      )}
    </Card>
  );
}
