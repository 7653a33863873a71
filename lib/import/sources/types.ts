import type { Readable } from "node:stream";

/** One file or folder at a storage provider, as browsing shows it. */
export interface SourceEntry {
  /** What the provider addresses it by: S3 key, Dropbox id, Drive file id, the URL. */
  id: string;
  /** Human path (S3 key, Dropbox path, Drive name). */
  path: string;
  name: string;
  isFolder: boolean;
  sizeBytes: number | null;
  /** The provider's version of the bytes (S3 ETag, Dropbox rev, Drive md5Checksum); null when unknown. */
  revision: string | null;
  modifiedAt: string | null;
}

export interface SourceFile {
  /** The bytes, streamed from the provider (never buffered whole). */
  stream: Readable;
  sizeBytes: number | null;
  revision: string | null;
  contentType: string | null;
}

/**
 * A storage provider as import sees it. Errors a member can fix (wrong key, missing bucket,
 * unknown path) are AppErrors; the provider's own refusals carry its message.
 */
export interface StorageSource {
  /** One level of a folder; `cursor` is the previous page's nextCursor. */
  browse(path: string, cursor: string | null): Promise<{ entries: SourceEntry[]; nextCursor: string | null }>;
  /** A file by its id (or path), with its current revision. */
  stat(id: string): Promise<SourceEntry>;
  open(id: string): Promise<SourceFile>;
  /** Every file under a folder (recursively), for watched folders. `cursor` is the provider's incremental position. */
  listFolder(path: string, cursor: string | null): Promise<{ files: SourceEntry[]; cursor: string | null }>;
  /** Checks the credentials reach the place (on connect). */
  verify(): Promise<void>;
  /**
   * True when `revision` is a checksum of the bytes (Drive md5Checksum, Dropbox content_hash): the
   * same revision under another id is then the same file, skipped without being read.
   */
  readonly revisionIsChecksum?: boolean;
}
