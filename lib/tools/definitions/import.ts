import { z } from "zod";
import { connectStorage, disconnectStorage, listStorageConnections } from "@/lib/import/connections";
import { browseStorage, importFiles, listImportRuns, MAX_IMPORT_FILES } from "@/lib/import/runs";
import { ImportRunSchema, SourceEntrySchema, StorageConnectionSchema, WatchedFolderSchema } from "@/lib/import/schemas";
import { listWatchedFolders, syncFolderNow, unwatchFolder, watchFolder } from "@/lib/import/watch";
import { PLATFORMS } from "@/lib/uploads/upload-schema";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const common = { category: "import", capability: "imports.run" } as const;
const read = { ...common, readOnly: true, destructive: false } as const;
const write = { ...common, readOnly: false, destructive: false } as const;

const connectionId = idArg("Storage connection");
const targetArgs = {
  folderId: idArg("Library folder").optional().describe("Folder the creatives are filed under (default: the library root)"),
  platform: z.enum(PLATFORMS).optional().describe("Ad platform the files are pushed to, as uploads are; default platform_a"),
};

/** One flat object (MCP and the catalog want an object schema); what each provider needs is checked by connectStorage. */
const ConnectInput = z.strictObject({
  provider: z.enum(["s3", "url"]).describe("s3: an S3-compatible bucket by access key; url: public HTTPS URLs (no credentials)"),
  name: z.string().min(1).max(100).optional().describe("Shown in lists; default s3://<bucket>, or Public URLs"),
  bucket: z.string().min(3).max(63).optional().describe("s3: the bucket (required)"),
  region: z
    .string()
    .min(1)
    .max(40)
    .regex(/^[a-z0-9-]+$/, "a region name is lower-case letters, digits and hyphens, like eu-west-1")
    .optional()
    .describe("s3: default us-east-1"),
  endpoint: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe("s3: an S3-compatible service's endpoint (https), e.g. https://<account>.r2.cloudflarestorage.com; absent: AWS"),
  forcePathStyle: z.boolean().optional().describe("s3: path-style addressing (bucket in the path); default true with an endpoint"),
  accessKeyId: z.string().min(1).max(200).optional().describe("s3: required"),
  secretAccessKey: z.string().min(1).max(200).optional().describe("s3: required; stored encrypted, never shown again"),
});

export const importTools = [
  defineTool({
    ...write,
    name: "connect_storage",
    title: "Connect file storage",
    description:
      "Connects external file storage to import creatives from: an S3-compatible bucket by access key (any https endpoint; the key is checked by listing the bucket and stored encrypted), or public HTTPS URLs (provider url, no credentials). Google Drive (drive.file scope) and Dropbox (read-only scopes) connect by OAuth from the dashboard's Import page (a consent page needs a browser); the other import tools then use them like any connection.",
    input: ConnectInput,
    output: z.object({ connection: StorageConnectionSchema }),
    handler: connectStorage,
  }),
  defineTool({
    ...read,
    name: "list_storage_connections",
    title: "List storage connections",
    description:
      "The workspace's storage connections, newest first, with their status: revoked ones (disconnected, or refused by Google Drive or Dropbox, with the provider's reason in statusReason) stay listed and answer not_connected. Secrets and tokens are never shown.",
    input: z.strictObject({}),
    output: z.object({ connections: z.array(StorageConnectionSchema) }),
    handler: listStorageConnections,
  }),
  defineTool({
    ...write,
    name: "disconnect_storage",
    title: "Disconnect storage",
    description:
      "Revokes a storage connection: a Google Drive or Dropbox connection's tokens are revoked at the provider (if the provider does not confirm, the connection is still disconnected here and statusReason says so), its stored credentials are erased, it stays listed as revoked, its watched folders stop syncing, and using it answers not_connected. Creatives imported through it stay.",
    input: z.strictObject({ connectionId }),
    output: z.object({ connection: StorageConnectionSchema }),
    handler: disconnectStorage,
  }),
  defineTool({
    ...read,
    name: "browse_storage",
    title: "Browse storage",
    description:
      "One level of a connection's folder: sub-folders first, then files, with size and the provider's revision (S3 ETag, Drive md5Checksum, Dropbox content_hash). path is a folder's id from an earlier listing: an S3 key prefix (campaigns/spring/), a Google Drive folder id, or a Dropbox path (/Campaigns/Spring); empty for the top. Paginated: pass nextCursor back as cursor.",
    input: z.strictObject({
      connectionId,
      path: z.string().max(1024).optional().describe("Folder to list; empty or absent: the top"),
      cursor: z.string().max(2048).nullable().optional(),
    }),
    output: z.object({ entries: z.array(SourceEntrySchema), nextCursor: z.string().nullable() }),
    handler: browseStorage,
  }),
  defineTool({
    ...write,
    name: "import_files",
    title: "Import files from storage",
    description: `Imports files from a storage connection: each file is streamed into the library and becomes an upload (type, size and format checked as for an upload; its job pushes it to the ad account and files the creative). paths are ids from browse_storage (S3 keys, Drive file ids, Dropbox ids or paths); a folder's id (an S3 prefix ending in /, a Drive folder id, a Dropbox folder path) takes the whole folder; for a url connection, https URLs. At most ${MAX_IMPORT_FILES} files. Files imported before are skipped: same provider revision (on Drive and Dropbox a checksum, so renamed copies are skipped unread) or same bytes. Answers the run at once; poll list_import_runs with runId.`,
    input: z.strictObject({
      connectionId,
      paths: z.array(z.string().min(1).max(2048)).min(1).max(200).describe("File (or folder) ids to import"),
      ...targetArgs,
    }),
    output: z.object({ run: ImportRunSchema }),
    handler: importFiles,
  }),
  defineTool({
    ...read,
    name: "list_import_runs",
    title: "List import runs",
    description:
      "Import runs (one-off imports and watched-folder syncs), newest first, each with its summary: items imported, skipped (already imported), failed, and flagged as near-duplicates. With runId: that run and its items (each file's status, error and resulting upload and creative). Paginated.",
    input: z.strictObject({
      runId: idArg("Import run").optional(),
      watchedFolderId: idArg("Watched folder").optional().describe("Only this watched folder's syncs"),
      ...pageArgs({ defaultLimit: 50, maxLimit: 200 }),
    }),
    output: z.object({ runs: z.array(ImportRunSchema), nextCursor: z.string().nullable() }),
    handler: listImportRuns,
  }),
  defineTool({
    ...write,
    name: "watch_storage_folder",
    title: "Watch a storage folder",
    description:
      "Watches a folder of a storage connection: every quarter hour (or with sync_watched_folder) its new files are imported (incrementally: Drive's changes feed, Dropbox's cursor, a bucket's listing by key and ETag) into the library folder given; files already imported (same provider revision or same bytes) are skipped and near-duplicate images are flagged. conflict if the folder is already watched.",
    input: z.strictObject({
      connectionId,
      path: z.string().max(1024).describe("The folder: S3 key prefix, Google Drive folder id or Dropbox path (empty: the top)"),
      ...targetArgs,
    }),
    output: z.object({ watchedFolder: WatchedFolderSchema }),
    handler: watchFolder,
  }),
  defineTool({
    ...write,
    name: "unwatch_storage_folder",
    title: "Stop watching a folder",
    description: "Stops syncing a watched folder. Its past runs and the creatives they made stay.",
    input: z.strictObject({ watchedFolderId: idArg("Watched folder") }),
    output: z.object({ ok: z.literal(true) }),
    handler: unwatchFolder,
  }),
  defineTool({
    ...read,
    name: "list_watched_folders",
    title: "List watched folders",
    description: "The workspace's watched storage folders with their last sync time.",
    input: z.strictObject({}),
    output: z.object({ watchedFolders: z.array(WatchedFolderSchema) }),
    handler: listWatchedFolders,
  }),
  defineTool({
    ...write,
    name: "sync_watched_folder",
    title: "Sync a watched folder now",
    description:
      "Syncs a watched folder now instead of waiting for the schedule: answers the run with the new files queued (none when nothing changed); its summary completes as they finish (list_import_runs with runId).",
    input: z.strictObject({ watchedFolderId: idArg("Watched folder") }),
    output: z.object({ run: ImportRunSchema }),
    handler: syncFolderNow,
  }),
];
