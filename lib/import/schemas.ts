import { z } from "zod";

/** The job event of one import item: fetch its bytes and make it an upload (inngest/functions/import-item.ts). */
export const IMPORT_ITEM_EVENT = "import/item.requested";
export interface ImportItemRequestedData {
  itemId: string;
  workspaceId: string;
}

/** The job event of a run whose transfers have all ended: near-duplicates, upload jobs, summary (inngest/functions/import-run-finish.ts). */
export const IMPORT_RUN_TRANSFERRED_EVENT = "import/run.transferred";
export interface ImportRunTransferredData {
  runId: string;
}

export const STORAGE_PROVIDERS = ["s3", "url", "dropbox", "google_drive"] as const;

export const StorageConnectionSchema = z.object({
  id: z.string(),
  provider: z.enum(STORAGE_PROVIDERS),
  name: z.string(),
  status: z.enum(["active", "revoked"]).describe("revoked: disconnected or refused by the provider; using it answers not_connected"),
  statusReason: z.string().nullable(),
  settings: z.record(z.string(), z.unknown()).describe("What is not secret: bucket, endpoint, region"),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});

export const SourceEntrySchema = z.object({
  id: z
    .string()
    .describe(
      "Pass to import_files as a path, or a folder's to browse_storage (S3 key, a folder's ending with /; Drive file id; Dropbox file id or folder path)",
    ),
  path: z.string(),
  name: z.string(),
  isFolder: z.boolean(),
  sizeBytes: z.number().nullable(),
  revision: z.string().nullable().describe("The provider's version of the bytes (S3 ETag, Drive md5Checksum, Dropbox content_hash)"),
  modifiedAt: z.string().nullable(),
});

export const ImportItemSchema = z.object({
  id: z.string(),
  sourceId: z.string(),
  fileName: z.string(),
  status: z.enum(["queued", "transferring", "imported", "skipped", "failed"]),
  error: z.string().nullable().describe("Why it failed, or why it was skipped"),
  sizeBytes: z.number().nullable(),
  bytesDone: z.number(),
  contentHash: z.string().nullable().describe("sha256 of the bytes, hex"),
  nearDuplicateOf: z.string().nullable().describe("An earlier import item whose image nearly matches this one (perceptual hash)"),
  uploadId: z.string().nullable().describe("The upload the file became; its job pushes it and files the creative"),
  creativeId: z.string().nullable(),
});

export const ImportRunSchema = z.object({
  id: z.string(),
  kind: z.enum(["one_off", "sync"]),
  status: z.enum(["running", "completed", "failed"]),
  connectionId: z.string(),
  watchedFolderId: z.string().nullable(),
  folderId: z.string().nullable(),
  itemCount: z.number(),
  importedCount: z.number(),
  skippedCount: z.number(),
  failedCount: z.number(),
  duplicateCount: z.number().describe("Images flagged as near-duplicates of earlier ones (imported all the same)"),
  error: z.string().nullable(),
  createdAt: z.string(),
  transferredAt: z
    .string()
    .nullable()
    .describe("When every item's transfer had ended; the run then checks the images for near-duplicates and starts the uploads' jobs before it completes"),
  finishedAt: z.string().nullable(),
  items: z.array(ImportItemSchema).optional(),
});

export const WatchedFolderSchema = z.object({
  id: z.string(),
  connectionId: z.string(),
  sourcePath: z.string(),
  folderId: z.string().nullable(),
  lastSyncAt: z.string().nullable(),
  createdAt: z.string(),
});

export type ImportRunView = z.input<typeof ImportRunSchema>;
export type ImportItemView = z.input<typeof ImportItemSchema>;
