import { once } from "node:events";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Principal } from "@/lib/auth/principal";
import { authorize } from "@/lib/auth/authorize";
import { findVisibleCreative } from "@/lib/creatives/list-creatives";
import { getDb, inTransaction, type SqlClient } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { badRequest } from "@/lib/errors";
import { canUseFolder } from "@/lib/folders/access";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { discardStoredFiles, getStorage, uploadStorageKey } from "@/lib/storage";
import { MediaInspector } from "./inspect-media-stream";
import { UPLOAD_LIMITS } from "./limits";
import { normalizeContentType, type MediaKind } from "@/lib/platforms/media-signature";
import { safeFileName } from "./file-name";
import { PLATFORMS, UPLOAD_REQUESTED_EVENT, UPLOAD_VERSION_REQUESTED_EVENT, type PlatformName, type UploadRequestedData } from "./upload-schema";

/** One file of an upload request, as it streams in. */
export interface IncomingFile {
  /** As the client sent it (may be empty or carry a path); made safe before use. */
  fileName: string;
  /** The content type the client declared; the file's bytes must agree with it. */
  declaredType: string;
  stream: Readable;
  /** The upload's id when it was chosen beforehand (a resumable upload keeps its tus id); a new id otherwise. */
  id?: string;
}

/** The request's options, unchecked. Absent: platform_a, and the library root. */
export interface UploadFields {
  platform?: string;
  folderId?: string;
  /** A creative id: the one file becomes that creative's next version instead of a new creative. */
  versionOf?: string;
}

export interface AcceptUploadsInput {
  /** The files, one at a time: each stream is read to its end (or failed) before the next is asked for. */
  files: AsyncIterable<IncomingFile> | Iterable<IncomingFile>;
  /**
   * May still be filled in while `files` is read (a multipart form can send them after its files):
   * each is checked as soon as it is seen, in the order the properties were set, and all are
   * final once `files` has ended.
   */
  fields: UploadFields;
}

export interface AcceptedUploads {
  uploads: { id: string; status: "processing" }[];
}

/** Files whose writes may still be finishing while the next one streams in (each holds at most its write buffer). */
const FILES_FINISHING_AT_ONCE = 4;

/**
 * Upload rows, one statement for all of them, in the given order: through the driver, not the ORM, as the ORM
 * spent 4 ms building the insert of a request's 25 rows, half its transaction (docs/performance.md).
 */
const INSERT_UPLOADS = `
  INSERT INTO uploads (id, "workspaceId", "folderId", "versionOfCreativeId", "createdById", "fileName", kind, "contentType",
    "sizeBytes", "storageKey", platform, "createdAt", "updatedAt")
  SELECT u->>'id', $2::text, $3::text, $4::text, $5::text, u->>'fileName', (u->>'kind')::"MediaKind", u->>'contentType',
    (u->>'sizeBytes')::int, u->>'storageKey', $6::"Platform", $7::timestamp(3), $7::timestamp(3)
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(u, ord)
  ORDER BY ord`;

/** A file in media storage that an upload row is to describe. Stored in request order: the response lists uploads in this order. */
export interface StoredFile {
  id: string;
  fileName: string;
  kind: MediaKind;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
}

/**
 * Accepts uploaded files: streams each into media storage while checking its type and size,
 * validates `platform` and `folderId` (whenever they become known), then records one upload per
 * file and starts one job each. On any failure nothing stays behind: no rows and no stored files.
 */
export async function acceptUploads(principal: Principal, input: AcceptUploadsInput): Promise<AcceptedUploads> {
  const storage = getStorage();
  const written: string[] = [];
  /** In request order; a file's write may still be finishing (closed, renamed into place) while the next one streams. */
  const storing: Promise<StoredFile>[] = [];
  let files: StoredFile[] = [];
  let wake: () => Promise<void> = async () => undefined;
  const checked: { platform?: PlatformName; folderId?: string; versionOf?: VersionTarget } = {};
  const seenFields = new Set<string>();
  let fileCount = 0;

  const checkNewFields = async () => {
    for (const [name, value] of Object.entries(input.fields) as [keyof UploadFields, string | undefined][]) {
      if (value === undefined || seenFields.has(name)) continue;
      seenFields.add(name);
      if (name === "platform") checked.platform = parsePlatform(value);
      else if (name === "folderId") checked.folderId = await requireUsableFolder(principal, value);
      else if (name === "versionOf") checked.versionOf = await requireVersionTarget(principal, value);
      if (checked.folderId !== undefined && checked.versionOf)
        throw badRequest("Give folderId or versionOf, not both: a new version stays in its creative's folder");
    }
  };

  const storeFile = async (file: IncomingFile) => {
    if (++fileCount > UPLOAD_LIMITS.maxFiles) throw badRequest(`Too many files: at most ${UPLOAD_LIMITS.maxFiles} per request`);
    const fileName = safeFileName(file.fileName);
    const declaredType = normalizeContentType(file.declaredType);
    const declaredKind = requireMediaKind(fileName, declaredType);
    const id = file.id ?? newId("upl");
    const storageKey = uploadStorageKey(principal.workspaceId, id);
    const inspector = new MediaInspector(fileName, declaredType, declaredKind);
    // The inspector can fail on the first chunk, before storage attaches to it; storage
    // still sees the error (the stream stays errored), so this listener only keeps it from being "unhandled".
    inspector.on("error", () => undefined);
    // pipeline, not pipe: a part cut short (malformed body, stalled client) must fail the inspector and so the write.
    void pipeline(file.stream, inspector).catch(() => undefined);
    written.push(storageKey);
    const stored = storage.put(storageKey, inspector, { contentType: declaredType }).then(({ sizeBytes }): StoredFile => {
      const format = inspector.format!;
      return { id, fileName, kind: format.kind, contentType: format.contentType, sizeBytes, storageKey };
    });
    stored.catch(() => undefined); // surfaces through Promise.all below
    storing.push(stored);
    // Once storage has taken the file's last byte, the next file may stream in while this one is closed and
    // renamed into place: each of those is a round trip to the file system's threads, and with 25 files
    // in a request they added up to a large share of its time whenever other work kept those threads busy.
    await Promise.race([once(inspector, "end"), stored]);
    await storing.at(-1 - FILES_FINISHING_AT_ONCE);
  };

  try {
    for await (const file of input.files) {
      await checkNewFields();
      await storeFile(file);
    }
    await checkNewFields();
    files = await Promise.all(storing);
    if (files.length === 0) throw badRequest("No files: send one or more parts named files");
    const target = checked.versionOf;
    if (target) requireOneFileOfKind(target, files);
    if (checked.folderId === undefined && principal.folderIds && !target) {
      throw badRequest("folderId is required: your access is limited to specific folders");
    }
    const jobs = files.map((f) => ({ id: f.id, jobRun: 1, versionOf: target?.id ?? null }));
    const owner: UploadOwner = {
      workspaceId: principal.workspaceId,
      folderId: target ? target.folderId : (checked.folderId ?? null),
      versionOf: target?.id ?? null,
      createdById: principal.userId,
      platform: checked.platform ?? "platform_a",
    };
    wake = await inTransaction(async (tx) => {
      const folderId = checked.folderId;
      // The folder was checked when its field arrived; it may have been deleted (empty then) while the files streamed.
      if (folderId !== undefined && principal.folderIds && !(await lockFolderForFiling(tx, principal.workspaceId, folderId))) {
        throw folderDeletedWhileUploading(folderId);
      }
      await recordUploads(tx, owner, files);
      return enqueueUploadJobs(tx, principal.workspaceId, jobs);
    });
  } catch (err) {
    await Promise.allSettled(storing); // no write may land after its file was discarded
    await discardStoredFiles(written, "uploads not recorded");
    throw err;
  }

  await afterUploadJobsEnqueued(
    wake,
    principal.workspaceId,
    files.map((f) => f.id),
  );
  return { uploads: files.map((f) => ({ id: f.id, status: "processing" as const })) };
}

/** Where new uploads go and who made them: the same for every file of a request or an import run. */
export interface UploadOwner {
  workspaceId: string;
  folderId: string | null;
  /** A creative whose next version the (one) file becomes; null for new creatives. */
  versionOf: string | null;
  createdById: string;
  platform: PlatformName;
}

/**
 * Records "processing" uploads for stored files in the caller's transaction `tx`; their jobs start separately.
 * A folder deleted since it was checked (while the files streamed in, or during an import run) files them at the
 * library root instead, as the foreign key does to what a deleted folder held: no upload keeps a deleted folder's id.
 */
export async function recordUploads(tx: SqlClient, owner: UploadOwner, files: StoredFile[]): Promise<void> {
  const folderId = owner.folderId && (await lockFolderForFiling(tx, owner.workspaceId, owner.folderId)) ? owner.folderId : null;
  await tx.queryRows(INSERT_UPLOADS, [
    JSON.stringify(files),
    owner.workspaceId,
    folderId,
    owner.versionOf,
    owner.createdById,
    owner.platform,
    sqlTime(new Date()),
  ]);
}

/** The refusal of a folder-scoped member's upload whose folder was deleted on its way: the library root is not theirs. */
export function folderDeletedWhileUploading(folderId: string) {
  return badRequest(
    `folderId "${folderId}": the folder was deleted while the files were uploading, and your access is limited to specific folders; nothing was stored, upload the files again into one of your folders`,
  );
}

/**
 * Whether the folder still exists in the workspace, locked (FOR KEY SHARE, as the foreign key's own check) until
 * `tx` ends: a delete_folder that commits first is seen here (no row), and one that comes after waits for `tx`
 * (it locks the folder before counting what it holds) and then finds the folder holding uploads (409).
 */
export async function lockFolderForFiling(tx: SqlClient, workspaceId: string, folderId: string): Promise<boolean> {
  const rows = await tx.queryRows<{ id: string }>(`SELECT id FROM folders WHERE id = $1 AND "workspaceId" = $2 FOR KEY SHARE`, [folderId, workspaceId]);
  return rows.length > 0;
}

/** An upload whose job is to start: a new one (jobRun 1) or one run again. `versionOf` picks the version job. */
export interface UploadJobStart {
  id: string;
  jobRun: number;
  versionOf?: string | null;
}

/**
 * Stores the uploads' job events in the transaction `tx` that records (or requeues) them, so an
 * upload is never left "processing" with no job, even when the process dies right after the commit.
 * Pass what it returns to `afterUploadJobsEnqueued` once the transaction has committed.
 */
export function enqueueUploadJobs(tx: SqlClient, workspaceId: string, uploads: UploadJobStart[]): Promise<() => Promise<void>> {
  return enqueueInTransaction(
    tx,
    uploads.map((u) => ({
      name: u.versionOf ? UPLOAD_VERSION_REQUESTED_EVENT : UPLOAD_REQUESTED_EVENT,
      id: `${u.id}-run-${u.jobRun}`,
      data: { uploadId: u.id, workspaceId, jobRun: u.jobRun } satisfies UploadRequestedData as unknown as Record<string, unknown>,
    })),
  );
}

/**
 * Wakes the job runner, or (Inngest) sends the events. If that send fails, the uploads are marked
 * failed (retryable) rather than left "processing" with no job.
 */
export async function afterUploadJobsEnqueued(wake: () => Promise<void>, workspaceId: string, uploadIds: string[]): Promise<void> {
  try {
    await wake();
  } catch (err) {
    console.error("[uploads] could not start upload jobs", err);
    await getDb().upload.updateMany({
      where: { id: { in: uploadIds }, workspaceId, status: "processing" },
      data: { status: "failed", error: "The upload job could not be started; retry the upload", finishedAt: new Date() },
    });
  }
}

/** Exact names only: `" platform_a"` is refused, as the JSON API refuses it (a guessed value is a wrong value). */
export function parsePlatform(value: string): PlatformName {
  if (!(PLATFORMS as readonly string[]).includes(value)) {
    throw badRequest(`Invalid platform ${JSON.stringify(value)}: use ${PLATFORMS.join(" or ")}`);
  }
  return value as PlatformName;
}

/** The folder must exist in the caller's workspace and be visible to them; otherwise it is unknown. */
export async function requireUsableFolder(principal: Principal, value: string): Promise<string> {
  const folderId = value.trim();
  if (!folderId) throw badRequest("folderId is empty: omit it to upload into the library root");
  const folder = await getDb().folder.findFirst({ where: { id: folderId, workspaceId: principal.workspaceId }, select: { id: true } });
  if (!folder || !(await canUseFolder(principal, folder.id))) throw badRequest(`Unknown folderId "${folderId}": no such folder in this workspace`);
  return folder.id;
}

interface VersionTarget {
  id: string;
  kind: MediaKind;
  folderId: string | null;
}

/** A creative the principal may add a version to (review.version): visible, ready; otherwise a 400 naming why. */
export async function requireVersionTarget(principal: Principal, value: string): Promise<VersionTarget> {
  authorize(principal, "review.version");
  const creative = await findVisibleCreative(principal, value.trim());
  if (!creative) throw badRequest(`Unknown versionOf "${value}": no such creative in this workspace`);
  if (creative.status !== "ready") throw badRequest(`versionOf: the creative is ${creative.status}; versions can be added once it is ready`);
  return { id: creative.id, kind: creative.kind, folderId: creative.folderId };
}

function requireOneFileOfKind(target: VersionTarget, files: StoredFile[]): void {
  if (files.length > 1) throw badRequest("versionOf takes one file: a creative gets one new version at a time");
  if (files[0]!.kind !== target.kind)
    throw badRequest(`The new file is ${files[0]!.kind === "image" ? "an image" : "a video"}; this creative's versions are ${target.kind}s`);
}

/** The kind a declared content type promises (its bytes are checked as they stream); a 400 unless image/* or video/*. */
export function requireMediaKind(fileName: string, declaredType: string): MediaKind {
  const kind = kindOfDeclaredType(declaredType);
  if (!kind) throw badRequest(`File "${fileName}" has the unsupported type "${declaredType || "(none)"}": only image/* and video/* files are accepted`);
  return kind;
}

function kindOfDeclaredType(type: string): MediaKind | null {
  if (/^image\/[a-z0-9.+-]+$/.test(type)) return "image";
  if (/^video\/[a-z0-9.+-]+$/.test(type)) return "video";
  return null;
}
