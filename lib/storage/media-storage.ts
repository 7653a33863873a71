import type { Readable } from "node:stream";
import type { DigestAlgorithm, FileDigest } from "./file-digest";

/** What storage knows about a stored object. */
export interface StoredObjectInfo {
  key: string;
  sizeBytes: number;
  /** A strong validator for the object's current bytes, quoted as an HTTP ETag. */
  etag: string;
  lastModified: Date;
}

/** An inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ReadOptions {
  range?: ByteRange;
}

export interface StoredObjectStream {
  info: StoredObjectInfo;
  /** The whole object, or only `range` when one was asked for. */
  stream: Readable;
}

/**
 * Where media bytes live: a local directory by default, an S3-compatible bucket by
 * configuration. Keys are relative paths like `ws_x/uploads/upl_y`.
 * Writes are all-or-nothing: a failed put leaves no object behind.
 */
export interface MediaStorage {
  readonly driver: "local" | "s3";
  /** Streams `body` into `key`; when the body errors, nothing is stored and the error is rethrown. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<{ sizeBytes: number }>;
  /** Opens the object (or a byte range of it); null when it does not exist. */
  read(key: string, options?: ReadOptions): Promise<StoredObjectStream | null>;
  /**
   * Bytes [start, end) of the object in one buffer (a chunk of a platform upload); fewer when the object
   * ends sooner; null when it does not exist. The local driver reads them with positioned reads, no stream.
   */
  readBytes(key: string, start: number, end: number): Promise<Buffer | null>;
  /** Size and validators; null when the object does not exist. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Copies an object to a new key (overwriting it); false when there is no object at `fromKey`. */
  copy(fromKey: string, toKey: string): Promise<boolean>;
  /**
   * The object's digest, size and first `headBytes` bytes (every byte read, as a receiver of the
   * whole file would); null when it does not exist. Hashed on a worker thread (a bucket's object is
   * downloaded to a temporary file first).
   */
  digest(key: string, algorithm: DigestAlgorithm, options?: { headBytes?: number }): Promise<FileDigest | null>;
  /**
   * Runs `fn` with a local file path holding the object's bytes (for sharp, ffprobe, ffmpeg).
   * The local driver passes its own file; remote drivers download to a temporary file that
   * is removed when `fn` settles. `fn` must not modify or keep the file.
   */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
}

/** Keys are relative, slash-separated and free of `.`/`..` segments, so no driver can escape its root. */
export function assertValidKey(key: string): void {
  const ok =
    key.length > 0 &&
    key.length <= 512 &&
    !key.startsWith("/") &&
    /^[A-Za-z0-9._\-/]+$/.test(key) &&
    key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
  if (!ok) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}
