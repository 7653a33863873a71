import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "@/lib/errors";
import { jsonOf, type OAuthSession } from "./oauth-session";
import type { SourceEntry, StorageSource } from "./types";

const FOLDER = "application/vnd.google-apps.folder";
/** Docs, Sheets and other Google-native files have no bytes to download (alt=media refuses them). */
const NATIVE = "application/vnd.google-apps.";
const FILE_FIELDS = "id,name,mimeType,size,md5Checksum,modifiedTime,parents,trashed";
const CALL_TIMEOUT_MS = 30_000;
/** How far up the parents a changed file is followed to tell whether it sits in a watched folder. */
const MAX_DEPTH = 32;

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  size?: string;
  md5Checksum?: string;
  modifiedTime?: string;
  parents?: string[];
  trashed?: boolean;
}

/**
 * Google Drive through its v3 REST API with the drive.file scope: the app sees the files the person
 * picked in the Google Picker (or that the app made). A file's id is Drive's file id, a folder's
 * too ("" browses My Drive's root); the revision is md5Checksum, a checksum of the bytes, so a
 * copy or a rename with the same bytes is known without reading it. Watched folders follow the
 * changes feed (changes.getStartPageToken, then changes.list from the saved token).
 */
export class GoogleDriveSource implements StorageSource {
  constructor(
    private readonly apiUrl: string,
    private readonly session: OAuthSession,
  ) {}

  readonly revisionIsChecksum = true;

  async verify(): Promise<void> {
    await this.get("/drive/v3/about", { fields: "user(displayName,emailAddress)" });
  }

  /** The person's name and email address, to name the connection. */
  async account(): Promise<{ displayName: string | null; emailAddress: string | null }> {
    const body = await this.get("/drive/v3/about", { fields: "user(displayName,emailAddress)" });
    return { displayName: body.user?.displayName ?? null, emailAddress: body.user?.emailAddress ?? null };
  }

  async browse(path: string, cursor: string | null) {
    const folderId = path === "" || path === "/" ? "root" : path;
    const body = await this.get("/drive/v3/files", {
      q: `'${escapeQuery(folderId)}' in parents and trashed = false`,
      fields: `nextPageToken,files(${FILE_FIELDS})`,
      orderBy: "folder,name",
      pageSize: "200",
      ...(cursor ? { pageToken: cursor } : {}),
    });
    const files = ((body.files ?? []) as DriveFile[]).filter((f) => f.mimeType === FOLDER || !f.mimeType.startsWith(NATIVE));
    return { entries: files.map(entryOf), nextCursor: (body.nextPageToken as string | undefined) ?? null };
  }

  async stat(id: string): Promise<SourceEntry> {
    return entryOf(await this.file(id));
  }

  async open(id: string) {
    const res = await this.send(`/drive/v3/files/${encodeURIComponent(id)}`, { alt: "media" }, false);
    if (!res.ok) await this.fail(res, id);
    const length = Number(res.headers.get("content-length"));
    return {
      stream: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
      sizeBytes: Number.isFinite(length) && res.headers.has("content-length") ? length : null,
      revision: null,
      contentType: res.headers.get("content-type")?.split(";")[0]?.trim() ?? null,
    };
  }

  /**
   * Without a cursor: every file under the folder (walked folder by folder), and the changes
   * feed's start token taken first, so a change made during the walk is seen next time. With one:
   * the changes since it, kept when the changed file sits under the folder.
   */
  async listFolder(path: string, cursor: string | null) {
    const folderId = path === "" || path === "/" ? "root" : path;
    if (!cursor) {
      const start = (await this.get("/drive/v3/changes/startPageToken", {})).startPageToken as string;
      return { files: await this.walk(folderId), cursor: start };
    }
    const files: SourceEntry[] = [];
    const parentsOf = new Map<string, string[]>();
    let pageToken: string | null = cursor;
    let next: string | null = null;
    while (pageToken) {
      const body = await this.get("/drive/v3/changes", {
        pageToken,
        pageSize: "1000",
        includeRemoved: "false",
        fields: `nextPageToken,newStartPageToken,changes(fileId,removed,file(${FILE_FIELDS}))`,
      });
      for (const change of (body.changes ?? []) as Array<{ fileId: string; removed?: boolean; file?: DriveFile }>) {
        const f = change.file;
        if (change.removed || !f || f.trashed || f.mimeType === FOLDER || f.mimeType.startsWith(NATIVE)) continue;
        parentsOf.set(f.id, f.parents ?? []);
        if (await this.isUnder(f.id, folderId, parentsOf)) files.push(entryOf(f));
      }
      pageToken = (body.nextPageToken as string | undefined) ?? null;
      next = (body.newStartPageToken as string | undefined) ?? next;
    }
    return { files, cursor: next ?? cursor };
  }

  private async walk(folderId: string): Promise<SourceEntry[]> {
    const files: SourceEntry[] = [];
    const queue = [folderId];
    const seen = new Set<string>();
    while (queue.length) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      let cursor: string | null = null;
      do {
        const page = await this.browse(id, cursor);
        for (const e of page.entries) e.isFolder ? queue.push(e.id) : files.push(e);
        cursor = page.nextCursor;
      } while (cursor);
    }
    return files;
  }

  private async isUnder(fileId: string, folderId: string, parentsOf: Map<string, string[]>): Promise<boolean> {
    let frontier = parentsOf.get(fileId) ?? [];
    for (let depth = 0; depth < MAX_DEPTH && frontier.length; depth++) {
      if (frontier.includes(folderId)) return true;
      const up: string[] = [];
      for (const parent of frontier) {
        if (!parentsOf.has(parent)) {
          const known = await this.file(parent, "id,parents").catch(() => null);
          parentsOf.set(parent, known?.parents ?? []);
        }
        up.push(...parentsOf.get(parent)!);
      }
      frontier = up;
    }
    // My Drive's root is named by its alias, which no parents list carries.
    return folderId === "root" && frontier.length === 0;
  }

  private async file(id: string, fields = FILE_FIELDS): Promise<DriveFile> {
    return (await this.get(`/drive/v3/files/${encodeURIComponent(id)}`, { fields }, id)) as DriveFile;
  }

  private async get(path: string, query: Record<string, string>, id?: string): Promise<any> {
    const res = await this.send(path, query, true);
    if (!res.ok) await this.fail(res, id);
    return jsonOf(res);
  }

  private async send(path: string, query: Record<string, string>, timeout: boolean): Promise<Response> {
    const url = new URL(this.apiUrl + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    try {
      return await this.session.call((token) =>
        fetch(url, { headers: { Authorization: `Bearer ${token}` }, ...(timeout ? { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) } : {}) }),
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("upstream_error", `Google Drive could not be reached: ${(err as Error).message}`);
    }
  }

  private async fail(res: Response, id?: string): Promise<never> {
    const body = await jsonOf(res);
    const message = body.error?.message ?? `HTTP ${res.status}`;
    if (res.status === 404 && id !== undefined) throw new AppError("not_found", `No Google Drive file "${id}" that this connection can see (${message})`);
    if (res.status === 403) throw new AppError("upstream_error", `Google Drive refused: ${message}`);
    if (res.status === 400) throw new AppError("invalid_input", `Google Drive refused the request: ${message}`);
    throw new AppError("upstream_error", `Google Drive answered ${res.status}: ${message}`);
  }
}

function entryOf(f: DriveFile): SourceEntry {
  const isFolder = f.mimeType === FOLDER;
  return {
    id: f.id,
    path: f.name,
    name: f.name,
    isFolder,
    sizeBytes: !isFolder && f.size !== undefined ? Number(f.size) : null,
    revision: isFolder ? null : (f.md5Checksum ?? null),
    modifiedAt: f.modifiedTime ?? null,
  };
}

/** Drive's query language quotes with ' and escapes with \. */
function escapeQuery(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
}
