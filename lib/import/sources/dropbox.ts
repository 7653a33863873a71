import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "@/lib/errors";
import { jsonOf, type OAuthSession } from "./oauth-session";
import type { SourceEntry, StorageSource } from "./types";

const CALL_TIMEOUT_MS = 30_000;

interface DropboxEntry {
  ".tag": "file" | "folder" | "deleted";
  id?: string;
  name: string;
  path_display?: string;
  path_lower?: string;
  size?: number;
  content_hash?: string;
  rev?: string;
  server_modified?: string;
}

/**
 * Dropbox through its v2 HTTP API (an App folder app, or files.content.read on full Dropbox).
 * Folders are paths ("" is the top, "/Campaigns/Spring" below it); a file's id is Dropbox's
 * "id:..." (stable across renames and moves), and its revision is content_hash, a checksum of the
 * bytes, so a renamed or copied file with the same bytes is known without reading it. Watched
 * folders follow list_folder's cursor (files/list_folder/continue).
 */
export class DropboxSource implements StorageSource {
  constructor(
    private readonly apiUrl: string,
    private readonly contentUrl: string,
    private readonly session: OAuthSession,
  ) {}

  readonly revisionIsChecksum = true;

  async verify(): Promise<void> {
    await this.account();
  }

  /** The person's display name and email, to name the connection. */
  async account(): Promise<{ displayName: string | null; emailAddress: string | null }> {
    const body = await this.rpc("/2/users/get_current_account", null);
    return { displayName: body.name?.display_name ?? null, emailAddress: body.email ?? null };
  }

  async browse(path: string, cursor: string | null) {
    const body = cursor
      ? await this.rpc("/2/files/list_folder/continue", { cursor })
      : await this.rpc("/2/files/list_folder", { path: folderPath(path), recursive: false, include_deleted: false, limit: 200 }, path);
    const entries = ((body.entries ?? []) as DropboxEntry[]).filter((e) => e[".tag"] !== "deleted").map(entryOf);
    entries.sort((a, b) => Number(b.isFolder) - Number(a.isFolder) || a.name.localeCompare(b.name));
    return { entries, nextCursor: body.has_more ? (body.cursor as string) : null };
  }

  async stat(id: string): Promise<SourceEntry> {
    const body = (await this.rpc("/2/files/get_metadata", { path: folderPath(id) }, id)) as DropboxEntry;
    return entryOf(body);
  }

  async open(id: string) {
    let res: Response;
    try {
      res = await this.session.call((token) =>
        fetch(`${this.contentUrl}/2/files/download`, {
          method: "POST",
          // A content-download endpoint: the arguments travel in Dropbox-API-Arg, the body is empty.
          headers: { Authorization: `Bearer ${token}`, "Dropbox-API-Arg": headerSafeJson({ path: folderPath(id) }) },
        }),
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("upstream_error", `Dropbox could not be reached: ${(err as Error).message}`);
    }
    if (!res.ok) await this.fail(res, id);
    let meta: DropboxEntry | null = null;
    try {
      meta = JSON.parse(res.headers.get("dropbox-api-result") ?? "null");
    } catch {
      meta = null;
    }
    const length = Number(res.headers.get("content-length"));
    return {
      stream: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
      sizeBytes: meta?.size ?? (res.headers.has("content-length") && Number.isFinite(length) ? length : null),
      revision: meta?.content_hash ?? null,
      contentType: null,
    };
  }

  /** Without a cursor: the folder listed recursively, ending with its cursor. With one: what changed since (a reset cursor lists again). */
  async listFolder(path: string, cursor: string | null): Promise<{ files: SourceEntry[]; cursor: string | null }> {
    let body: any;
    if (cursor) {
      try {
        body = await this.rpc("/2/files/list_folder/continue", { cursor });
      } catch (err) {
        if (!(err instanceof AppError && /\breset\b/.test(err.message))) throw err;
        return this.listFolder(path, null);
      }
    } else {
      body = await this.rpc("/2/files/list_folder", { path: folderPath(path), recursive: true, include_deleted: false, limit: 2000 }, path);
    }
    const files: SourceEntry[] = [];
    for (;;) {
      for (const e of (body.entries ?? []) as DropboxEntry[]) if (e[".tag"] === "file") files.push(entryOf(e));
      if (!body.has_more) break;
      body = await this.rpc("/2/files/list_folder/continue", { cursor: body.cursor });
    }
    return { files, cursor: body.cursor as string };
  }

  /** An RPC endpoint: JSON in, JSON out (no arguments: no body at all). */
  private async rpc(path: string, args: unknown, id?: string): Promise<any> {
    let res: Response;
    try {
      res = await this.session.call((token) =>
        fetch(this.apiUrl + path, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, ...(args === null ? {} : { "Content-Type": "application/json" }) },
          ...(args === null ? {} : { body: JSON.stringify(args) }),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        }),
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("upstream_error", `Dropbox could not be reached: ${(err as Error).message}`);
    }
    if (!res.ok) await this.fail(res, id);
    return jsonOf(res);
  }

  private async fail(res: Response, id?: string): Promise<never> {
    const text = await res.text().catch(() => "");
    let summary = text.slice(0, 300);
    try {
      summary = JSON.parse(text).error_summary ?? summary;
    } catch {
      // 400 answers are plain text
    }
    // 409: the endpoint's own error, e.g. path/not_found/.. or reset/.. (list_folder/continue).
    if (res.status === 409 && /not_found/.test(summary) && id !== undefined) throw new AppError("not_found", `No Dropbox file or folder "${id}" (${summary})`);
    if (res.status === 409) throw new AppError("invalid_input", `Dropbox refused: ${summary}`);
    throw new AppError("upstream_error", `Dropbox answered ${res.status}: ${summary}`);
  }
}

function entryOf(e: DropboxEntry): SourceEntry {
  const isFolder = e[".tag"] === "folder";
  const path = e.path_display ?? e.path_lower ?? e.name;
  return {
    // A folder is addressed by its path (what browse and watch take); a file by its id.
    id: isFolder ? path : (e.id ?? path),
    path,
    name: e.name,
    isFolder,
    sizeBytes: isFolder ? null : (e.size ?? null),
    revision: isFolder ? null : (e.content_hash ?? null),
    modifiedAt: e.server_modified ?? null,
  };
}

/** Dropbox names the top "" (never "/"); ids ("id:...") and paths ("/a/b") pass as they are. */
function folderPath(path: string): string {
  const trimmed = path.trim();
  if (trimmed === "" || trimmed === "/") return "";
  if (trimmed.startsWith("id:") || trimmed.startsWith("rev:") || trimmed.startsWith("ns:")) return trimmed;
  return `/${trimmed.replace(/^\/+/, "").replace(/\/+$/, "")}`;
}

/** HTTP headers carry ASCII: Dropbox asks for non-ASCII characters as \uXXXX escapes in Dropbox-API-Arg. */
function headerSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
