import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { badRequest, conflict, notFound } from "@/lib/errors";
import { canUseFolder } from "@/lib/folders/access";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import type { PlatformName } from "@/lib/uploads/upload-schema";
import { findConnection } from "./connections";
import { runView, startRun } from "./runs";
import type { ImportRunView } from "./schemas";
import { sourceFor } from "./sources";
import { isUniqueViolation } from "@/lib/db/errors";

/** Syncs that try a file whose import failed, per revision of it; then only a change (or a one-off import) brings it in. */
export const SYNC_TRIES_PER_REVISION = 3;

type WatchedRow = Awaited<ReturnType<ReturnType<typeof getDb>["watchedFolder"]["findUniqueOrThrow"]>>;

function toWatchedView(w: WatchedRow) {
  return {
    id: w.id,
    connectionId: w.connectionId,
    sourcePath: w.sourcePath,
    folderId: w.folderId,
    lastSyncAt: w.lastSyncAt?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
  };
}

export async function watchFolder(principal: Principal, input: { connectionId: string; path: string; folderId?: string; platform?: PlatformName }) {
  const connection = await findConnection(principal, input.connectionId);
  const source = sourceFor(connection);
  if (input.folderId === undefined && principal.folderIds) throw badRequest("folderId is required: your access is limited to specific folders");
  if (input.folderId !== undefined) {
    const folder = await getDb().folder.findFirst({ where: { id: input.folderId, workspaceId: principal.workspaceId }, select: { id: true } });
    if (!folder || !(await canUseFolder(principal, folder.id))) throw badRequest(`Unknown folderId "${input.folderId}": no such folder in this workspace`);
  }
  await source.browse(input.path, null); // the folder must be readable now, not at the first sync
  const existing = await getDb().watchedFolder.findFirst({ where: { connectionId: connection.id, sourcePath: input.path } });
  if (existing) throw conflict(`${input.path} is already watched (${existing.id})`);
  const row = await getDb()
    .watchedFolder.create({
      data: {
        id: newId("wfd"),
        workspaceId: principal.workspaceId,
        connectionId: connection.id,
        sourcePath: input.path,
        folderId: input.folderId ?? null,
        platform: input.platform ?? "platform_a",
        createdById: principal.userId,
      },
    })
    .catch((err: unknown) => {
      // A second call for the same folder at the same moment: the unique (connection, path) index answers it.
      if (isUniqueViolation(err)) throw conflict(`${input.path} is already watched`);
      throw err;
    });
  return { watchedFolder: toWatchedView(row) };
}

export async function unwatchFolder(principal: Principal, input: { watchedFolderId: string }) {
  const { count } = await getDb().watchedFolder.deleteMany({ where: { id: input.watchedFolderId, workspaceId: principal.workspaceId } });
  if (!count) throw notFound("Watched folder");
  return { ok: true as const };
}

export async function listWatchedFolders(principal: Principal) {
  const rows = await getDb().watchedFolder.findMany({ where: { workspaceId: principal.workspaceId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return { watchedFolders: rows.map(toWatchedView) };
}

/** Syncs one watched folder now; the run's summary grows as its items finish (list_import_runs). */
export async function syncFolderNow(principal: Principal, input: { watchedFolderId: string }): Promise<{ run: ImportRunView }> {
  const watched = await getDb().watchedFolder.findFirst({ where: { id: input.watchedFolderId, workspaceId: principal.workspaceId } });
  if (!watched) throw notFound("Watched folder");
  const runId = await syncWatchedFolder(watched, { recordEmpty: true });
  return { run: await runView(runId!, true) };
}

/**
 * One sync: lists what is in the folder (or what changed, where the provider has a change feed),
 * and starts a run with the files. Files whose revision was imported before are recorded as skipped
 * by startRun; the bytes' hash catches renamed copies when they are read.
 */
export async function syncWatchedFolder(watched: WatchedRow, options: { recordEmpty: boolean }): Promise<string | null> {
  const db = getDb();
  const connection = await findConnection({ workspaceId: watched.workspaceId }, watched.connectionId);
  const source = sourceFor(connection);
  const listing = await source.listFolder(watched.sourcePath, watched.cursor);
  const known = await db.importItem.findMany({
    where: {
      workspaceId: watched.workspaceId,
      connectionId: connection.id,
      sourceId: { in: listing.files.map((f) => f.id) },
      status: { in: ["imported", "skipped", "queued", "transferring"] },
    },
    select: { sourceId: true, sourceRevision: true },
  });
  const seen = new Set(known.map((k) => `${k.sourceId}\n${k.sourceRevision}`));
  // A file that failed that many times as it is (not an image or video, too large, or the provider kept failing)
  // waits until it changes, instead of a failed run and a notification every quarter hour.
  const givenUp = await db.importItem.groupBy({
    by: ["sourceId", "sourceRevision"],
    where: { workspaceId: watched.workspaceId, connectionId: connection.id, sourceId: { in: listing.files.map((f) => f.id) }, status: "failed" },
    _count: { _all: true },
  });
  for (const g of givenUp) if (g._count._all >= SYNC_TRIES_PER_REVISION) seen.add(`${g.sourceId}\n${g.sourceRevision}`);
  const files = listing.files.filter((f) => !seen.has(`${f.id}\n${f.revision}`));
  if (!files.length && !options.recordEmpty) {
    await db.watchedFolder.update({ where: { id: watched.id }, data: { cursor: listing.cursor, lastSyncAt: new Date() } });
    return null;
  }
  const run = await startRun({
    workspaceId: watched.workspaceId,
    connectionId: connection.id,
    watchedFolderId: watched.id,
    kind: "sync",
    folderId: watched.folderId,
    platform: watched.platform,
    createdById: watched.createdById,
    files,
    revisionIsChecksum: source.revisionIsChecksum === true,
  });
  await db.watchedFolder.update({ where: { id: watched.id }, data: { cursor: listing.cursor, lastSyncAt: new Date() } });
  return run.id;
}

/** The scheduled sync: every watched folder of an active connection, one after another; a failing folder does not stop the rest. */
export async function syncAllWatchedFolders(): Promise<{ synced: number; failed: number }> {
  const rows = await getDb().watchedFolder.findMany({ orderBy: { lastSyncAt: { sort: "asc", nulls: "first" } } });
  const active = new Set(
    (await getDb().storageConnection.findMany({ where: { id: { in: rows.map((r) => r.connectionId) }, status: "active" }, select: { id: true } })).map(
      (c) => c.id,
    ),
  );
  let synced = 0;
  let failed = 0;
  for (const row of rows) {
    if (!active.has(row.connectionId)) continue;
    try {
      await syncWatchedFolder(row, { recordEmpty: false });
      synced++;
    } catch (err) {
      failed++;
      log.warn("watched folder sync failed", { component: "import", watchedFolderId: row.id, err });
    }
  }
  return { synced, failed };
}
