import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { digestFile, type DigestAlgorithm, type FileDigest } from "./file-digest";
import { assertValidKey, type MediaStorage, type ReadOptions, type StoredObjectInfo, type StoredObjectStream } from "./media-storage";

/** Partial writes live here until they are complete, then are renamed into place (same file system: atomic). */
const PARTIAL_DIR = ".partial";

const ignoreUntilPiped = () => undefined;

/**
 * How much a write may buffer before the stream feeding it is paused: with Node's 16 KB default
 * every network chunk (64 KB) paused the whole upload chain until its write returned; with 1 MB the
 * chain keeps reading while the disk writes, and buffered chunks go to disk in one writev.
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** Media in a directory on the local disk (default: DATA_DIR/media). */
export class LocalMediaStorage implements MediaStorage {
  readonly driver = "local" as const;

  /** Directories known to exist (created or seen by this instance): a batch of files into one folder makes it once. */
  private readonly knownDirs = new Set<string>();

  constructor(private readonly root: string) {}

  private async ensureDir(dir: string): Promise<void> {
    if (this.knownDirs.has(dir)) return;
    await fs.mkdir(dir, { recursive: true });
    if (this.knownDirs.size > 10_000) this.knownDirs.clear();
    this.knownDirs.add(dir);
  }

  /** The absolute path of a key's file. */
  pathOf(key: string): string {
    assertValidKey(key);
    if (key === PARTIAL_DIR || key.startsWith(`${PARTIAL_DIR}/`)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.root, key);
  }

  async digest(key: string, algorithm: DigestAlgorithm, options: { headBytes?: number } = {}): Promise<FileDigest | null> {
    try {
      return await digestFile(this.pathOf(key), algorithm, options.headBytes ?? 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async put(key: string, body: Readable, _options: { contentType: string }): Promise<{ sizeBytes: number }> {
    const target = this.pathOf(key);
    const partial = path.join(this.root, PARTIAL_DIR, `${randomBytes(12).toString("hex")}.part`);
    body.on("error", ignoreUntilPiped); // an error while we create directories still reaches pipeline()
    await this.ensureDir(path.dirname(partial));
    const file = createWriteStream(partial, { flags: "wx", highWaterMark: WRITE_BUFFER_BYTES });
    try {
      await pipeline(body, file);
      await this.renameIntoPlace(partial, target);
    } catch (err) {
      await fs.rm(partial, { force: true });
      throw err;
    }
    return { sizeBytes: file.bytesWritten };
  }

  /** A directory removed since it was made (a delete emptied it) is made again. */
  private async renameIntoPlace(partial: string, target: string): Promise<void> {
    const dir = path.dirname(target);
    await this.ensureDir(dir);
    try {
      await fs.rename(partial, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      this.knownDirs.delete(dir);
      await this.ensureDir(dir);
      await fs.rename(partial, target);
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    try {
      const s = await fs.stat(this.pathOf(key));
      if (!s.isFile()) return null;
      return { key, sizeBytes: s.size, etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`, lastModified: s.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async read(key: string, options: ReadOptions = {}): Promise<StoredObjectStream | null> {
    const info = await this.stat(key);
    if (!info) return null;
    const range = options.range;
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { info, stream };
  }

  async readBytes(key: string, start: number, end: number): Promise<Buffer | null> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    try {
      const bytes = Buffer.allocUnsafe(Math.max(0, end - start));
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === bytes.length ? bytes : bytes.subarray(0, filled);
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true });
    await this.removeEmptyParents(path.dirname(file));
  }

  async copy(fromKey: string, toKey: string): Promise<boolean> {
    const to = this.pathOf(toKey);
    await fs.mkdir(path.dirname(to), { recursive: true });
    try {
      await fs.copyFile(this.pathOf(fromKey), to);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      await this.removeEmptyParents(path.dirname(to));
      return false;
    }
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const file = this.pathOf(key);
    await fs.access(file);
    return fn(file);
  }

  /** Keeps the tree tidy: directories emptied by a delete go too (never the root). */
  private async removeEmptyParents(dir: string): Promise<void> {
    const root = path.resolve(this.root);
    let current = path.resolve(dir);
    while (current.startsWith(root + path.sep)) {
      try {
        await fs.rmdir(current);
      } catch {
        return; // not empty, or already gone
      }
      current = path.dirname(current);
    }
  }
}
