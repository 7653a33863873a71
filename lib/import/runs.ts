import type { Principal } from "@/lib/auth/principal";
import { getDb, sqlOf } from "@/lib/db/client";
import { AppError, badRequest, notFound } from "@/lib/errors";
import { canUseFolder } from "@/lib/folders/access";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import type { PlatformName } from "@/lib/uploads/upload-schema";
import { findConnection } from "./connections";
import { completeRun } from "./finish-run";
import {
  IMPORT_ITEM_EVENT,
  IMPORT_RUN_TRANSFERRED_EVENT,
  type ImportItemRequestedData,
  type ImportRunTransferredData,
  type ImportItemView,
  type ImportRunView,
} from "./schemas";
import { type SourceEntry, sourceFor } from "./sources";

/** Files one import may name, after folders are expanded. */
export const MAX_IMPORT_FILES = 500;

export async function browseStorage(principal: Principal, input: { connectionId: string; path?: string; cursor?: string | null }) {
  const connection = await findConnection(principal, input.connectionId);
  return sourceFor(connection).browse(input.path ?? "", input.cursor ?? null);
}

export interface ImportFilesInput {
  connectionId: string;
  /** File ids (S3 keys, URLs); an S3 id ending in "/" is a folder, imported with everything under it. */
  paths: string[];
  folderId?: string;
  platform?: PlatformName;
}

/** One-off import: one run, one item (and one job) per file. Files imported before (same revision) are skipped at once. */
export async function importFiles(principal: Principal, input: ImportFilesInput): Promise<{ run: ImportRunView }> {
  const connection = await findConnection(principal, input.connectionId);
  const source = sourceFor(connection);
  const folderId = await checkTargetFolder(principal, input.folderId);
  // By id: a file named twice (itself and inside a folder also named, or the same URL twice) is imported once.
  const byId = new Map<string, SourceEntry>();
  for (const path of input.paths) {
    let found: SourceEntry[];
    if (path.endsWith("/")) found = (await source.listFolder(path, null)).files;
    else {
      // Drive and Dropbox folders are ids and paths like files: what they are is known once asked.
      const entry = await source.stat(path);
      found = entry.isFolder ? (await source.listFolder(entry.id, null)).files : [entry];
    }
    for (const file of found) if (!byId.has(file.id)) byId.set(file.id, file);
    if (byId.size > MAX_IMPORT_FILES)
      throw new AppError("limit_exceeded", `More than ${MAX_IMPORT_FILES} files in one import: pick fewer, or watch the folder`);
  }
  const files = [...byId.values()];
  if (!files.length) throw badRequest("Nothing to import: the folders named are empty");
  const run = await startRun({
    workspaceId: principal.workspaceId,
    connectionId: connection.id,
    watchedFolderId: null,
    kind: "one_off",
    folderId,
    platform: input.platform ?? "platform_a",
    createdById: principal.userId,
    files,
    revisionIsChecksum: source.revisionIsChecksum === true,
  });
  return { run: await runView(run.id, true) };
}

export interface StartRunInput {
  workspaceId: string;
  connectionId: string;
  watchedFolderId: string | null;
  kind: "one_off" | "sync";
  folderId: string | null;
  platform: PlatformName;
  createdById: string;
  files: SourceEntry[];
  /** The provider's revision is a checksum of the bytes (Drive, Dropbox): a known checksum under another id is a copy. */
  revisionIsChecksum?: boolean;
}

/**
 * Records a run and its items, then starts one job per new item. A file whose provider revision
 * was already imported through this connection is recorded as skipped and gets no job.
 */
export async function startRun(input: StartRunInput): Promise<{ id: string }> {
  const db = getDb();
  const runId = newId("imr");
  const known = await knownRevisions(input.workspaceId, input.connectionId, input.files, input.revisionIsChecksum === true);
  const now = Date.now();
  const items = input.files.map((f, index) => {
    const already = f.revision ? (known.get(`${f.id}\n${f.revision}`) ?? (input.revisionIsChecksum ? known.get(`*\n${f.revision}`) : undefined)) : undefined;
    // A second file of this run with the same checksum is the same bytes: the first one imports them.
    if (input.revisionIsChecksum && f.revision && !already) known.set(`*\n${f.revision}`, runId);
    return {
      id: newId("imi"),
      workspaceId: input.workspaceId,
      runId,
      connectionId: input.connectionId,
      sourceId: f.id,
      sourcePath: f.path,
      fileName: f.name,
      sourceRevision: f.revision,
      sizeBytes: f.sizeBytes === null ? null : BigInt(f.sizeBytes),
      status: already ? ("skipped" as const) : ("queued" as const),
      error: already ? `Already imported (same ${revisionName(f)}) by run ${already}` : null,
      finishedAt: already ? new Date() : null,
      // One millisecond apart, so the run lists its items in the order they were asked for.
      createdAt: new Date(now + index),
    };
  });
  const queued = items.filter((i) => i.status === "queued");
  // The items' jobs are queued in the transaction that records them, so a crash right after the commit cannot
  // leave queued items without a job (which later imports would also skip as already known).
  const startJobs = await db.$transaction(async (tx) => {
    await tx.importRun.create({
      data: {
        id: runId,
        workspaceId: input.workspaceId,
        connectionId: input.connectionId,
        watchedFolderId: input.watchedFolderId,
        kind: input.kind,
        folderId: input.folderId,
        platform: input.platform,
        createdById: input.createdById,
        itemCount: items.length,
      },
    });
    await tx.importItem.createMany({ data: items });
    return enqueueInTransaction(
      sqlOf(tx),
      queued.map((i) => ({
        name: IMPORT_ITEM_EVENT,
        id: i.id,
        data: { itemId: i.id, workspaceId: input.workspaceId } satisfies ImportItemRequestedData as unknown as Record<string, unknown>,
      })),
    );
  });
  try {
    await startJobs();
  } catch (err) {
    // With Inngest the events are sent only now; if that fails, the items say so instead of waiting for ever.
    await db.importItem.updateMany({
      where: { runId, status: "queued" },
      data: { status: "failed", error: `The import job could not be started: ${(err as Error).message}`, finishedAt: new Date() },
    });
  }
  await settleRun(runId);
  return { id: runId };
}

/**
 * Recounts the run's items (its progress). Once none is queued or transferring, the transfers
 * have ended: a run that imported files goes on to its follow-up job (near-duplicates, the
 * uploads' jobs, then the summary: lib/import/finish-run.ts), queued in the same transaction as
 * its `transferredAt`; a run with nothing imported completes at once. Safe to repeat.
 */
export async function settleRun(runId: string): Promise<void> {
  const db = getDb();
  const groups = await db.importItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  const count = (s: string) => groups.find((g) => g.status === s)?._count._all ?? 0;
  const open = count("queued") + count("transferring");
  const counts = { importedCount: count("imported"), skippedCount: count("skipped"), failedCount: count("failed") };
  if (open > 0) {
    await db.importRun.updateMany({ where: { id: runId, status: "running" }, data: counts });
    return;
  }
  const wake = await db.$transaction(async (tx) => {
    const { count: transferred } = await tx.importRun.updateMany({
      where: { id: runId, status: "running", transferredAt: null },
      data: { ...counts, transferredAt: new Date() },
    });
    if (counts.importedCount === 0) return null;
    // A repeat (this step again after a crash) queues the follow-up again while the run is still
    // running: with Inngest the first send may not have happened; the event id makes it once.
    if (!transferred && !(await tx.importRun.count({ where: { id: runId, status: "running" } }))) return null;
    return enqueueInTransaction(sqlOf(tx), [
      {
        name: IMPORT_RUN_TRANSFERRED_EVENT,
        id: `${runId}-transferred`,
        data: { runId } satisfies ImportRunTransferredData as unknown as Record<string, unknown>,
      },
    ]);
  });
  if (wake) await wake();
  else if (counts.importedCount === 0) await completeRun(runId);
}

export async function listImportRuns(
  principal: Principal,
  input: { limit: number; cursor?: string | null; runId?: string; watchedFolderId?: string },
): Promise<{ runs: ImportRunView[]; nextCursor: string | null }> {
  if (input.runId) {
    const run = await getDb().importRun.findFirst({ where: { id: input.runId, workspaceId: principal.workspaceId }, select: { id: true } });
    if (!run) throw notFound("Import run");
    return { runs: [await runView(run.id, true)], nextCursor: null };
  }
  const rows = await getDb().importRun.findMany({
    where: {
      AND: [{ workspaceId: principal.workspaceId }, input.watchedFolderId ? { watchedFolderId: input.watchedFolderId } : {}, afterCursor(input.cursor)],
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { runs: page.items.map((r) => toRunView(r)), nextCursor: page.nextCursor };
}

export async function runView(runId: string, withItems: boolean): Promise<ImportRunView> {
  const db = getDb();
  const run = await db.importRun.findUniqueOrThrow({ where: { id: runId } });
  if (!withItems) return toRunView(run);
  const items = await db.importItem.findMany({ where: { runId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const uploadIds = items.map((i) => i.uploadId).filter((id): id is string => id !== null);
  const uploads = uploadIds.length ? await db.upload.findMany({ where: { id: { in: uploadIds } }, select: { id: true, creativeId: true } }) : [];
  const creativeOf = new Map(uploads.map((u) => [u.id, u.creativeId]));
  return { ...toRunView(run), items: items.map((i) => toItemView(i, i.uploadId ? (creativeOf.get(i.uploadId) ?? null) : null)) };
}

type RunRow = Awaited<ReturnType<ReturnType<typeof getDb>["importRun"]["findUniqueOrThrow"]>>;
type ItemRow = Awaited<ReturnType<ReturnType<typeof getDb>["importItem"]["findUniqueOrThrow"]>>;

function toRunView(r: RunRow): ImportRunView {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    connectionId: r.connectionId,
    watchedFolderId: r.watchedFolderId,
    folderId: r.folderId,
    itemCount: r.itemCount,
    importedCount: r.importedCount,
    skippedCount: r.skippedCount,
    failedCount: r.failedCount,
    duplicateCount: r.duplicateCount,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    transferredAt: r.transferredAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

function toItemView(i: ItemRow, creativeId: string | null): ImportItemView {
  return {
    id: i.id,
    sourceId: i.sourceId,
    fileName: i.fileName,
    status: i.status,
    error: i.error,
    sizeBytes: i.sizeBytes === null ? null : Number(i.sizeBytes),
    bytesDone: Number(i.bytesDone),
    contentHash: i.contentHash,
    nearDuplicateOf: i.nearDuplicateOf,
    uploadId: i.uploadId,
    creativeId,
  };
}

/**
 * (sourceId, revision) pairs already imported (or on their way) through the connection -> the run
 * that did it; with checksum revisions also ("*", checksum), whatever file had it.
 */
async function knownRevisions(workspaceId: string, connectionId: string, files: SourceEntry[], byChecksum: boolean): Promise<Map<string, string>> {
  const ids = files.filter((f) => f.revision).map((f) => f.id);
  const known = new Map<string, string>();
  if (byChecksum) {
    const sums = [...new Set(files.map((f) => f.revision).filter((r): r is string => r !== null))];
    for (let i = 0; i < sums.length; i += 500) {
      const rows = await getDb().importItem.findMany({
        where: { workspaceId, connectionId, sourceRevision: { in: sums.slice(i, i + 500) }, status: { in: ["queued", "transferring", "imported"] } },
        select: { sourceRevision: true, runId: true },
      });
      for (const r of rows) known.set(`*\n${r.sourceRevision}`, r.runId);
    }
  }
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await getDb().importItem.findMany({
      where: { workspaceId, connectionId, sourceId: { in: ids.slice(i, i + 500) }, status: { in: ["queued", "transferring", "imported"] } },
      select: { sourceId: true, sourceRevision: true, runId: true },
    });
    for (const r of rows) if (r.sourceRevision) known.set(`${r.sourceId}\n${r.sourceRevision}`, r.runId);
  }
  return known;
}

function revisionName(f: SourceEntry): string {
  return f.revision?.startsWith('"') ? "ETag" : "checksum";
}

async function checkTargetFolder(principal: Principal, value: string | undefined): Promise<string | null> {
  if (value === undefined) {
    if (principal.folderIds) throw badRequest("folderId is required: your access is limited to specific folders");
    return null;
  }
  const folder = await getDb().folder.findFirst({ where: { id: value, workspaceId: principal.workspaceId }, select: { id: true } });
  if (!folder || !(await canUseFolder(principal, folder.id))) throw badRequest(`Unknown folderId "${value}": no such folder in this workspace`);
  return folder.id;
}
